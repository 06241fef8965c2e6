"""The reference behind an engine whose loop a task can kill, as an asyncio engine's is:
a task that raises KeyboardInterrupt ends it (the engine prints the traceback), and no
task forked after that ever runs. The example that forks such a task passes; the examples
after it time out, and so do they in every fresh executor, whose rebuild of the group's
namespace replays it: one cause, which the triage view shows as a cascade.
"""

from __future__ import annotations

import threading
import traceback
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter

#: set when a task ended the loop
_LOOP_ENDED = threading.Event()
#: what a task forked on an ended loop waits for: nothing ever sets it
_NEVER = threading.Event()


def _guarded(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    try:
        return func(*args, **kwargs)
    except KeyboardInterrupt:
        traceback.print_exc()
        _LOOP_ENDED.set()
        return None


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if _LOOP_ENDED.is_set():
        return ref.fork(_NEVER.wait)
    return ref.fork(_guarded, func, args, kwargs)


def adapter() -> Adapter:
    base = reference_adapter()
    base.fw.fork = fork
    return Adapter(name="fragile", version="1", fw=base.fw, profiles=base.profiles)
