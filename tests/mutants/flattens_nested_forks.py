"""The trace records nested forks beside their parent, not inside it."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._graphs import flatten_nested


def graph_nodes(traced: Any) -> list[Any]:
    return flatten_nested(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("flattens-nested-forks", graph_nodes=graph_nodes)
