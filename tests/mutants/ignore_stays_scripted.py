"""An fw.ignore function stays scripted code, so it cannot fork a lambda (no dynamic profile).

The implementation claims core, async and trace: scripted code that forks a
lambda is rejected, as TorchScript rejects it, which is allowed. The mutation
is that a function marked fw.ignore is treated as scripted code too.

It breaks SCRIPT-IGNORE-1: "The call MUST run f as plain Python, [...] and fork
inside f accepts any callable, as in plain Python (FORK-CALLABLES-1), also on an
implementation that does not claim the dynamic profile".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("SCRIPT-IGNORE-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if local.state.scripted and getattr(func, "__name__", "") == "<lambda>":
        raise TypeError("scripted code cannot fork a lambda")
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("ignore-stays-scripted", profiles={"core", "async", "trace"}, fork=fork)
