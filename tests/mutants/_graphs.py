"""Rewrites of graph_nodes output, for the trace mutants."""

from __future__ import annotations

from collections.abc import Sequence

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
