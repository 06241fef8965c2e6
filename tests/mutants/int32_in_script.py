"""In scripted code, wait gives integer results wrapped to 32 bits, as a C int would.

Scripted code that keeps integers in 32-bit slots: a large result wraps around.
It breaks SCRIPT-SAME-RESULT-1: "A scripted function MUST return what the same
function returns in plain Python [...]. Integers in scripted code are at least
64 bits wide".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "SCRIPT-SAME-RESULT-1",
    extras={
        "FORK-BUILTINS-1": "the probe forks abs on 2**40 in scripted code",
    },
)


def wait(future: Any) -> Any:
    value = ref.wait(future)
    if local.state.scripted and type(value) is int:
        return (value + 2**31) % 2**32 - 2**31
    return value


def adapter() -> Adapter:
    return mutant("int32-in-script", wait=wait)
