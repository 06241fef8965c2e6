"""fw.ignore's wrapper takes the wrapped function as an ordinary first parameter.

``ignore(f)`` returns ``functools.partial(call, f)`` with ``call(func, *args,
**kwargs)``: an ignored function whose own parameter is named ``func``, called
with ``func=`` as a keyword, raises ``TypeError`` ("got multiple values for
argument 'func'") instead of running. Breaks SCRIPT-IGNORE-1: scripted code
"can call [the result] as it would call ``f``".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("SCRIPT-IGNORE-1")


def call(func: Any, *args: Any, **kwargs: Any) -> Any:  # the mutation: func is not positional-only
    return func(*args, **kwargs)


def ignore(func: Any) -> Any:
    ref.ignore(func)  # the reference's checks
    return functools.update_wrapper(functools.partial(call, func), func)


def adapter() -> Adapter:
    return mutant("ignore-wrapper-takes-func", ignore=ignore)
