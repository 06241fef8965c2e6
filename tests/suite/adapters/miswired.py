"""The reference behind an adapter with a bug of its own: its ``fork`` does not take the
spec's keyword arguments (the engine would), so the spec's call is refused at the call.
The triage view labels such failures adapter errors, never drafts them as engine limits.
"""

from __future__ import annotations

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter


def fork(fn: Any, *args: Any) -> Any:
    return ref.fork(fn, *args)


def adapter() -> Adapter:
    base = reference_adapter()
    base.fw.fork = fork
    return Adapter(name="miswired", version="1", fw=base.fw, profiles=base.profiles)
