"""fw.script(module) compiles a copy of the module: its later changes are not seen."""

from __future__ import annotations

import copy
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="SCRIPT-MODULE-1",
    granted="Once the program changes the plain module's attributes, the scripted module MAY "
    "give what the module gave when it was scripted or what it gives now",
    reaches=("fw.script(",),
    shows="""
def scale(x: int, factor: int) -> int:
    return x * factor

class Scaler(fw.Module):
    def __init__(self, factor: int) -> None:
        super().__init__()
        self.factor = factor

    def forward(self, x: int) -> int:
        return fw.wait(fw.fork(scale, x, self.factor))

plain = Scaler(2)
scripted = fw.script(plain)
plain.factor = 3
print(scripted(5))
""",
)


def script(obj: Any, **options: Any) -> Any:
    """The reference's script; a module is copied first (one level, as TorchScript copies
    its attributes), so that the compiled module keeps the values it was scripted with."""
    if isinstance(obj, ref.Module) and not isinstance(obj, ref.ScriptModule):
        return ref.script(copy.copy(obj), **options)
    return ref.script(obj, **options)


def adapter() -> Adapter:
    return variant("scripted-modules-copy-attributes", script=script)
