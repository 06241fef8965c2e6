"""The reference, with each task sent as to another process: pickled with cloudpickle (as
Dask, Ray and loky send tasks), unpickled, and the copy run. A task whose function, closure
or arguments hold what does not pickle cannot be forked, and a copy's side effects stay in
the copy (tests/suite/test_programs.py).
"""

from __future__ import annotations

from typing import Any

import cloudpickle  # type: ignore[import-untyped]  # (a dependency of dask)

import reference_impl as ref
from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    task = cloudpickle.loads(cloudpickle.dumps((func, args, kwargs)))
    return ref.fork(task[0], *task[1], **task[2])


def adapter() -> Adapter:
    base = reference_adapter()
    base.fw.fork = fork
    return Adapter(name="pickling", version="1", fw=base.fw, profiles=frozenset({"core"}))
