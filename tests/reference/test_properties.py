"""Property: any tree of nested forks gives the same result scripted as in plain Python."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

import reference_impl as fw


@dataclass(frozen=True)
class Node:
    """A task: combine its children's results with a weight and an offset."""

    weight: int
    children: tuple[Node, ...]
    waited: tuple[bool, ...]


def evaluate(node: Node, offset: int = 0, *, scale: int = 1) -> int:
    futures = [
        fw.fork(evaluate, child, offset + i, scale=scale + i)
        for i, child in enumerate(node.children)
    ]
    total = node.weight * scale + offset
    for future, waited in zip(futures, node.waited, strict=True):
        if waited:  # un-waited futures are allowed, and must not change the result
            total = total * 3 + fw.wait(future)
    return total


nodes = st.recursive(
    st.builds(Node, st.integers(-50, 50), st.just(()), st.just(())),
    lambda kids: st.lists(kids, max_size=4).flatmap(
        lambda children: st.builds(
            Node,
            st.integers(-50, 50),
            st.just(tuple(children)),
            st.lists(st.booleans(), min_size=len(children), max_size=len(children)).map(tuple),
        )
    ),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None)
@given(nodes, st.integers(-5, 5), st.integers(-3, 3))
def test_scripted_tree_equals_plain_python(tree: Node, offset: int, scale: int) -> None:
    expected = evaluate(tree, offset, scale=scale)
    assert fw.script(evaluate)(tree, offset, scale=scale) == expected
