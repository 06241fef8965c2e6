"""script deletes forks whose future is discarded, as TorchScript's dead-code elimination does.

A statement that is only ``fw.fork(...)`` is removed from the compiled
function's source before it is compiled, so the task never runs.

It breaks NEST-UNWAITED-RUNS-1: "In scripted code a task nobody waits on MUST
still run to completion".
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-UNWAITED-RUNS-1",
    extras={
        "LIFECYCLE-EXIT-1": reasons.UNWAITED_CHILDREN,
    },
)


class _DropBareForks(ast.NodeTransformer):
    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        call = node.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "fork"
        ):
            return ast.copy_location(ast.Pass(), node)
        return node


def _without_bare_forks(func: Any) -> Any:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return func
    definition = tree.body[0]
    if not isinstance(definition, ast.FunctionDef) or func.__closure__:
        return func
    definition.decorator_list = []
    tree = ast.fix_missing_locations(_DropBareForks().visit(tree))
    namespace: dict[str, Any] = {}
    exec(compile(tree, func.__code__.co_filename, "exec"), func.__globals__, namespace)
    return namespace[definition.name]


def script(obj: Any, **options: Any) -> Any:
    if isinstance(obj, ref.Module) or not inspect.isfunction(obj):
        return ref.script(obj, **options)
    return ref.script(_without_bare_forks(obj), **options)


def adapter() -> Adapter:
    return mutant("drops-unused-forks", script=script)
