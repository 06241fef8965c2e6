"""fork forgets keyword arguments."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return ref.fork(func, *args)


def adapter() -> Adapter:
    return mutant("drops-kwargs", fork=fork)
