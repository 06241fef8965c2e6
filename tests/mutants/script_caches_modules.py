"""script(module) is memoised per module: scripted again, it keeps its first attributes.

The compiled copy of a module is cached by the module's identity, made from a
copy of the module taken the first time: an attribute changed afterwards is
not seen by ``fw.script(module)`` called again, where the plain module sees it.

It breaks MODULE-METHOD-1: "A module's own methods MUST be forkable as bound
methods that see the module's attributes, in plain Python and in a scripted
module".
"""

import copy
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "MODULE-METHOD-1",
    extras={
        "SCRIPT-MODULE-1": "probe 5 scripts a module again after changing its attribute: "
        "fw.script called again MUST give what the module gives now",
    },
)

_compiled: dict[int, tuple[Any, Any]] = {}  # id(module) -> (module, its compiled copy)


def script(obj: Any, **options: Any) -> Any:
    if not isinstance(obj, ref.Module):
        return ref.script(obj, **options)
    cached = _compiled.get(id(obj))
    if cached is None or cached[0] is not obj:
        cached = (obj, ref.script(copy.copy(obj), **options))
        _compiled[id(obj)] = cached
    return cached[1]


def adapter() -> Adapter:
    return mutant("script-caches-modules", script=script)
