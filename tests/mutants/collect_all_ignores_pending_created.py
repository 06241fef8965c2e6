"""collect_all of created futures completes at once, without waiting for them to be set.

A collect_all written for forked futures, which complete by themselves, takes
created futures, which have no task to wait for, for settled and completes at
once. It breaks FUTURE-COLLECT-CREATED-1: "the future collect_all returns is not
done while one of them is not, and completes when the last of them is
completed".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-CREATED-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()


def collect_all(futures: list[Any]) -> Any:
    if futures and all(type(future) is Future for future in futures):
        combined: Any = ref.Future()
        combined.set_result(list(futures))  # the mutation: created futures are not waited
        return combined
    return ref.collect_all(futures)


def adapter() -> Adapter:
    return mutant("collect-all-ignores-pending-created", Future=Future, collect_all=collect_all)
