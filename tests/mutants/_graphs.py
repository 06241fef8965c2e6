"""Rewrites of graph_nodes output, for the trace mutants."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from reference_impl import GraphNode


def inline_forks(nodes: Sequence[GraphNode]) -> list[GraphNode]:
    """No fork nodes: each fork's body stands in its place, and waits vanish."""
    result: list[GraphNode] = []
    for node in nodes:
        if node.kind == "fork":
            result += inline_forks(node.blocks[0])
        elif node.kind != "wait":
            result.append(node)
    return result


def flatten_nested(nodes: Sequence[GraphNode]) -> list[GraphNode]:
    """Nested forks are lifted beside their parent instead of inside it."""
    result: list[GraphNode] = []
    for node in nodes:
        if node.kind == "fork":
            body = list(node.blocks[0])
            inner = [n for n in body if n.kind in ("fork", "wait")]
            kept = [n for n in body if n.kind not in ("fork", "wait")]
            result.append(node._replace(blocks=(tuple(kept),)))
            result += flatten_nested(inner)
        else:
            result.append(node)
    return result


def drop_unwaited(nodes: Sequence[GraphNode]) -> list[GraphNode]:
    """Fork nodes whose future no wait consumes are left out."""
    consumed = {value for n in nodes if n.kind == "wait" for value in n.inputs}
    return [
        node._replace(blocks=tuple(tuple(drop_unwaited(b)) for b in node.blocks))
        for node in nodes
        if node.kind != "fork" or set(node.outputs) & consumed
    ]


def reverse_forks(nodes: Sequence[GraphNode]) -> list[GraphNode]:
    """The fork nodes of each graph listed in reverse order, in the places forks held."""
    result = [
        node._replace(blocks=tuple(tuple(reverse_forks(b)) for b in node.blocks)) for node in nodes
    ]
    places = [index for index, node in enumerate(result) if node.kind == "fork"]
    for place, fork in zip(places, [result[i] for i in reversed(places)], strict=True):
        result[place] = fork
    return result


def unlink_waits(nodes: Sequence[GraphNode]) -> list[GraphNode]:
    """Wait nodes read a name no node writes, instead of their fork's future."""
    return [
        node._replace(
            inputs=tuple(f"future of {name}" for name in node.inputs)
            if node.kind == "wait"
            else node.inputs,
            blocks=tuple(tuple(unlink_waits(b)) for b in node.blocks),
        )
        for node in nodes
    ]


class ListNode(NamedTuple):
    """A node whose sequences are lists."""

    kind: str
    inputs: list[str]
    outputs: list[str]
    blocks: list[list[ListNode]]


def as_lists(nodes: Sequence[GraphNode]) -> list[ListNode]:
    """The same nodes with inputs, outputs and blocks as lists, not tuples."""
    return [
        ListNode(
            node.kind,
            list(node.inputs),
            list(node.outputs),
            [as_lists(block) for block in node.blocks],
        )
        for node in nodes
    ]
