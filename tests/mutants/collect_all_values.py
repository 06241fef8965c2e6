"""collect_all's future gives the futures' values instead of the futures.

A collect_all modelled on ``asyncio.gather`` or on wait_all, whose combined
future resolves each future it was given. It breaks FUTURE-COLLECT-ALL-1: "its
value is the list of the given futures (the futures, not their values)".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-COLLECT-ALL-1",
    extras={
        "FUTURE-COLLECT-CREATED-1": "the example waits on the futures collect_all gives",
        "FUTURE-THEN-1": "probe 7's callback waits on the futures collect_all gives",
        "NEST-ANY-POOL-1": "probe 3 waits on the futures collect_all gives, values here",
        "FUTURE-WAIT-ALL-1": "probe 4 gives wait_all collect_all's future, whose value is the "
        "futures' values here, not the futures",
    },
)


def _values(combined: Any) -> list[Any]:
    return [ref.wait(future) for future in combined.value()]


def collect_all(futures: list[Any]) -> Any:
    return ref.collect_all(futures).then(_values)


def adapter() -> Adapter:
    return mutant("collect-all-values", collect_all=collect_all)
