"""A scripted function takes its wrapped function as an ordinary first parameter.

``script(f)`` returns ``functools.partial(run, f)`` with ``run(func, *args,
**kwargs)``: a scripted function whose own parameter is named ``func``,
called (or forked) with ``func=`` as a keyword, raises ``TypeError``
("got multiple values for argument 'func'") instead of running.

It breaks SCRIPT-SAME-RESULT-1: "A scripted function MUST return what the same
function returns in plain Python, for any arguments the function takes, given by
position or by keyword of any name".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("SCRIPT-SAME-RESULT-1")


def run(func: Any, *args: Any, **kwargs: Any) -> Any:  # the mutation: func is not positional-only
    return func(*args, **kwargs)


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    if isinstance(obj, ref.Module):
        return scripted
    return functools.update_wrapper(functools.partial(run, scripted), obj)


def adapter() -> Adapter:
    return mutant("scripted-call-func-keyword", script=script)
