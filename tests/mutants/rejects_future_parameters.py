"""script cannot compile a function with a parameter annotated as a future or list of futures.

A compiler whose type system has no future type for parameters. It breaks
FUTURE-ANNOTATIONS-1: "fw.Future[T] MUST be usable as a type annotation, alone
and inside list[...], on parameters".
"""

from typing import Any, get_args, get_origin

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-ANNOTATIONS-1",
    extras={
        "FUTURE-CONTAINERS-1": "the example passes futures in containers to scripted code",
        "FUTURE-RETURNED-1": "its probe 5 gives the future a task returned to a scripted "
        "function, which waits on it",
    },
)


def mentions_future(annotation: Any) -> bool:
    if annotation is ref.Future or get_origin(annotation) is ref.Future:
        return True
    return any(mentions_future(arg) for arg in get_args(annotation))


def script(obj: Any, **options: Any) -> Any:
    annotations = getattr(obj, "__annotations__", None)
    if not isinstance(obj, ref.Module) and isinstance(annotations, dict):
        for name, annotation in annotations.items():
            if name != "return" and mentions_future(annotation):
                raise TypeError(f"script() cannot compile parameter {name!r}: {annotation}")
    return ref.script(obj, **options)


def adapter() -> Adapter:
    return mutant("rejects-future-parameters", script=script)
