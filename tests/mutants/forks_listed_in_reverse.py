"""graph_nodes lists the fork nodes of each graph in reverse order."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._graphs import reverse_forks


def graph_nodes(traced: Any) -> list[Any]:
    return reverse_forks(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("forks-listed-in-reverse", graph_nodes=graph_nodes)
