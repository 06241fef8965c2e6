"""A scripted function drops the keyword arguments its signature does not name.

The compiled function binds a call to its schema by looking up each parameter
by name, and ignores whatever else came: a keyword the function does not
accept is silently dropped instead of raising. Forking the scripted function
from plain Python with such a keyword then runs it without complaint. Breaks
KWARGS-UNKNOWN-1: "A keyword the function does not accept MUST raise
``TypeError`` in plain Python, from ``fork`` or at the latest from ``wait``".
"""

import functools
import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("KWARGS-UNKNOWN-1")


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    if isinstance(obj, ref.Module):
        return scripted
    try:
        parameters = inspect.signature(obj).parameters
    except (TypeError, ValueError):  # no signature to bind to: called as it is
        return scripted
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return scripted
    names = {
        name
        for name, p in parameters.items()
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }

    @functools.wraps(obj)
    def bound(*args: Any, **kwargs: Any) -> Any:
        known = {key: value for key, value in kwargs.items() if key in names}  # the mutation
        return scripted(*args, **known)

    return bound


def adapter() -> Adapter:
    return mutant("script-drops-unknown-keywords", script=script)
