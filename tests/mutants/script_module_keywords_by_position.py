"""A scripted module's forward gets keyword arguments by position, in the order they were given.

The compiled module marshals a call into one argument list: the positional
arguments, then the keyword values in the order written. One keyword, or
keywords in parameter order, come out right; keywords in another order land in
the wrong parameters. Breaks SCRIPT-MODULE-1: calling the scripted module and
its ``forward`` "give what the plain module gives for the same arguments".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import ScriptedModulesAs, mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "SCRIPT-MODULE-1",
    extras={
        "KWARGS-UNKNOWN-1": "the probe forks a scripted module with a keyword it does not "
        "accept, which arrives by position instead",
    },
)


class FlatScriptModule(ref.ScriptModule):
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._forward(*args, *kwargs.values())  # the mutation: keywords by position


def adapter() -> Adapter:
    return mutant("script-module-keywords-by-position", script=ScriptedModulesAs(FlatScriptModule))
