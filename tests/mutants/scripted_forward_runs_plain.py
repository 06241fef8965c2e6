"""A scripted module's forward, called directly, runs as plain Python; only its call is scripted.

``script(module)`` compiles the module's call entry point; its ``forward``
attribute is the original method, so ``scripted.forward(x)`` runs the Python
forward, whose forks are plain-Python forks. Its results are the same (plain
forks give what scripted ones give), but its forks no longer run in parallel.
Breaks SCRIPT-MODULE-1: ``forward`` and the call "both run the module's
``forward`` as scripted code".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import ScriptedModulesAs, mutant
from tests.mutants._contract import contract

CONTRACT = contract("SCRIPT-MODULE-1")


class EntryPointOnly(ref.ScriptModule):
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._module.forward(*args, **kwargs)  # the mutation: not scripted

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._forward(*args, **kwargs)


def adapter() -> Adapter:
    return mutant("scripted-forward-runs-plain", script=ScriptedModulesAs(EntryPointOnly))
