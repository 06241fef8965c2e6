"""script(module) returns a plain function: callable, but without forward.

A compiler that treats a module as its forward, and compiles and returns that
function. It breaks SCRIPT-MODULE-1: "fw.script(module) [...] MUST return an
object that has a forward method and can itself be called".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "SCRIPT-MODULE-1",
    extras={
        "MODULE-FORK-1": "upstream's example calls the scripted module's forward",
    },
)


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    if isinstance(obj, ref.Module):

        def call(*args: Any, **kwargs: Any) -> Any:
            return scripted(*args, **kwargs)

        return call
    return scripted


def adapter() -> Adapter:
    return mutant("script-module-without-forward", script=script)
