"""script(module) returns a plain function: callable, but without forward."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    if isinstance(obj, ref.Module):

        def call(*args: Any, **kwargs: Any) -> Any:
            return scripted(*args, **kwargs)

        return call
    return scripted


def adapter() -> Adapter:
    return mutant("script-module-without-forward", script=script)
