"""Graphs hold more nodes than the four kinds (an alpha constant per add and sub, a return
node), every node carries a fifth field, and the nodes come in a list of a class of its own."""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import reference_impl as ref
from conformance.adapter import Adapter
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="TRACE-GRAPH-NODES-1",
    granted="fw.graph_nodes(traced) MUST return, as a list, the nodes ... Other nodes MAY exist: "
    "kinds the implementation needs, with any number of inputs and outputs. A node MAY carry "
    "attributes besides these four (its types, its source location); examples read only these "
    "four.",
    profiles=frozenset({"trace"}),
    shows="""
def add_one(x):
    return x + 1

print([node.kind for node in fw.graph_nodes(fw.trace(add_one, fw.tensor(1)))])
""",
)


class Node(NamedTuple):
    """A node with a fifth field, as TorchScript's carry types and source locations."""

    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    blocks: tuple[tuple[Node, ...], ...]
    source: str = "<traced>"


def _with_more(nodes: Any, names: Any) -> tuple[Node, ...]:
    """TorchScript's shape: ``aten::add`` and ``aten::sub`` read a constant ``alpha``; a
    ``return`` node reads what the graph returns (here: the last node's outputs)."""
    out: list[Node] = []
    for node in nodes:
        blocks = tuple(_with_more(block, names) for block in node.blocks)
        inputs = tuple(node.inputs)
        if node.kind in ("add", "sub"):
            alpha = f"alpha.{next(names)}"
            out.append(Node("constant", (), (alpha,), ()))
            inputs += (alpha,)
        out.append(Node(node.kind, inputs, tuple(node.outputs), blocks))
    last = out[-1].outputs if out else ()
    out.append(Node("return", last, (), ()))
    return tuple(out)


class NodeList(list[Node]):
    """The nodes "as a list" (TRACE-GRAPH-NODES-1): a list, of a class of its own."""


def graph_nodes(traced: Any, /) -> NodeList:
    return NodeList(_with_more(ref.graph_nodes(traced), itertools.count()))


def adapter() -> Adapter:
    return variant("graph-nodes-with-more", profiles=LATITUDE.profiles, graph_nodes=graph_nodes)
