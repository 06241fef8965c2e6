"""A plain-Python fork of a closure calls the first closure it saw with the same code.

A cache of prepared closures (functions with cells) keyed on ``func.__code__``
(to prepare each once), in the path of plain-Python forks that run the task at
once: closures made by one factory share their code object, so every later
one runs as the first one, with the first one's cells. Functions without
cells, as most examples' are, and forks made by scripted code are unaffected.
It breaks FORK-CALLABLES-1: "In plain Python, fork MUST accept any callable as func and
call it as a direct call would: [...] a closure".
"""

import threading
from types import CodeType, FunctionType
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-CALLABLES-1",
    extras={
        "FORK-SCRIPTED-1": "the reference's fw.script wrappers are closures of one factory: "
        "forked from plain Python, each scripted function runs as the first one forked",
        "TRACE-FORKS-SCRIPTED-1": "its run forks scripted functions (closures of fw.script) "
        "from plain Python: each runs as the first one forked",
        "TRACE-RERUN-1": "its probes call in plain Python a function that forks closures it "
        "makes anew on each call: later calls run the first call's closures",
    },
)

_prepared: dict[CodeType, Any] = {}
_lock = threading.Lock()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    state = local.state
    plain = not state.scripted and state.scope is None and state.run is None
    if plain and isinstance(func, FunctionType) and func.__closure__ is not None:
        with _lock:
            func = _prepared.setdefault(func.__code__, func)
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("caches-functions-by-code", fork=fork)
