"""An fw.ignore function called with keywords gets their values by position, in the order given.

``ignore`` hands a call across to plain Python as one list of arguments: the
positional ones, then the keyword values in the order they were written, as
a boundary that marshals a call into a flat argument list does. A call by
position, or with keywords in parameter order, gives the same result; keywords
in another order land in the wrong parameters. Breaks SCRIPT-IGNORE-1: scripted
code "can call [the result] as it would call ``f``".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("SCRIPT-IGNORE-1")


def ignore(func: Any) -> Any:
    ref.ignore(func)  # the reference's checks

    @functools.wraps(func)
    def boundary(*args: Any, **kwargs: Any) -> Any:
        return func(*args, *kwargs.values())  # the mutation: keywords by position

    return boundary


def adapter() -> Adapter:
    return mutant("ignore-passes-keywords-by-position", ignore=ignore)
