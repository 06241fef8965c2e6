"""The trace leaves out forks that are never waited.

A tracer that prunes dead code: a fork whose future no wait reads is left out of
the graph. It breaks TRACE-UNWAITED-1: "A fork that is never waited MUST still
be recorded as a fork node".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._graphs import drop_unwaited

CONTRACT = contract("TRACE-UNWAITED-1")


def graph_nodes(traced: Any) -> list[Any]:
    return drop_unwaited(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("ignores-unwaited-forks", graph_nodes=graph_nodes)
