"""In scripted code, wait gives integer results wrapped to 32 bits, as a C int would."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant


def wait(future: Any) -> Any:
    value = ref.wait(future)
    if local.state.scripted and type(value) is int:
        return (value + 2**31) % 2**32 - 2**31
    return value


def adapter() -> Adapter:
    return mutant("int32-in-script", wait=wait)
