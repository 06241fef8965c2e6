"""A task's calls of plain-Python functions that return nothing land 0.2 s later, after wait."""

import functools
import inspect
import threading
from typing import Any

from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant

DELAY = 0.2


def ignore(func: Any) -> Any:
    returns_nothing = inspect.signature(func).return_annotation is None

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        if returns_nothing and local.state.scripted and local.state.current is not None:
            later = threading.Timer(DELAY, func, args, kwargs)
            later.daemon = True
            later.start()
            return None
        return func(*args, **kwargs)

    return call


def adapter() -> Adapter:
    return mutant("defers-task-side-effects", ignore=ignore)
