"""Scripted code cannot fork a lambda, although the implementation claims the dynamic profile.

fw.ignore functions are plain Python here (forks inside them run at once), so
only the dynamic profile's requirement notices.

TorchScript refuses lambdas; an implementation that claims the dynamic profile
may not. It breaks SCRIPT-DYNAMIC-1: "An implementation claiming dynamic MUST
let scripted code fork lambdas, closures and recursive functions".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("SCRIPT-DYNAMIC-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if local.state.scripted and getattr(func, "__name__", "") == "<lambda>":
        raise TypeError("scripted code cannot fork a lambda")
    return ref.fork(func, *args, **kwargs)


def ignore(func: Any) -> Any:
    @functools.wraps(func)
    def plain(*args: Any, **kwargs: Any) -> Any:
        outer = local.state.scripted
        local.state.scripted = False
        try:
            return func(*args, **kwargs)
        finally:
            local.state.scripted = outer

    return plain


def adapter() -> Adapter:
    return mutant("script-rejects-lambdas", fork=fork, ignore=ignore)
