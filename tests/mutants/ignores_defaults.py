"""Parameters fork does not pass get 0 instead of their defaults.

fork binds the call to the signature and fills the parameters left out with a
zero value, as a runtime with typed slots initialised to zero does. It breaks
KWARGS-DEFAULTS-1: "Parameters that fork does not pass MUST take their
defaults".
"""

import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "KWARGS-DEFAULTS-1",
    extras={
        "DET-PURE-1": "the generated programs leave parameters to their defaults",
        "FORK-CALLABLES-1": "the probe forks a partial of a function with defaults",
        "FORK-NO-ARGS-1": "fork(func) of a function whose parameters all have defaults",
        "FORK-SCRIPTED-1": "the probe leaves a parameter to its default",
        "SCRIPT-DYNAMIC-1": "the probe's lambdas made in a loop keep their values as defaults",
        "TRACE-KWARGS-1": "its probe leaves a default out between two keywords",
    },
)

_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    try:
        signature = inspect.signature(func)
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError):  # no signature, or a call that fails anyway
        return ref.fork(func, *args, **kwargs)
    for name, parameter in signature.parameters.items():
        has_default = parameter.default is not inspect.Parameter.empty
        if name not in bound.arguments and parameter.kind in _NAMED and has_default:
            bound.arguments[name] = 0
    return ref.fork(func, *bound.args, **bound.kwargs)


def adapter() -> Adapter:
    return mutant("ignores-defaults", fork=fork)
