"""Parameters fork does not pass get 0 instead of their defaults."""

import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant

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
