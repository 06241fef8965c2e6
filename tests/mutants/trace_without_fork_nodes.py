"""Traces without fork nodes: forked bodies are inlined."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._graphs import inline_forks


def graph_nodes(traced: Any) -> list[Any]:
    return inline_forks(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("trace-without-fork-nodes", graph_nodes=graph_nodes)
