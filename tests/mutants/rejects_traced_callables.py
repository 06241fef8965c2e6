"""fork rejects traced functions: only Python callables and scripted code can be forked.

A runtime whose fork knows Python callables and compiled code, but not the
recordings trace makes. It breaks SCRIPT-FORKS-TRACED-1: "Scripted code MUST be
able to fork a traced function and a traced module".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("SCRIPT-FORKS-TRACED-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if isinstance(func, ref.TracedFunction):
        raise TypeError("fork() cannot run a traced function")
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("rejects-traced-callables", fork=fork)
