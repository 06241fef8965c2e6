"""Running a recorded graph on new inputs: forks fork, waits wait."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from .futures import wait
from .graph import Graph
from .tasks import fork

_OPERATIONS: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
}


def run(graph: Graph, env: dict[str, Any]) -> Any:
    """Execute ``graph``'s nodes over ``env`` (names to values) and rebuild its result."""
    for node in graph.nodes:
        if node.kind == "constant":
            env[node.outputs[0]] = node.value
        elif node.kind == "fork":
            env[node.outputs[0]] = fork(run, node.block, dict(env))
        elif node.kind == "wait":
            env[node.outputs[0]] = wait(env[node.inputs[0]])
        else:
            left, right = (env[name] for name in node.inputs)
            env[node.outputs[0]] = _OPERATIONS[node.kind](left, right)
    return rebuild(graph.result, env)


def rebuild(template: Any, env: dict[str, Any]) -> Any:
    """A value from a template of names (tracing.template)."""
    kind, content = template
    if kind == "tensor":
        return env[content]
    if kind == "list":
        return [rebuild(item, env) for item in content]
    if kind == "tuple":
        return tuple(rebuild(item, env) for item in content)
    return content
