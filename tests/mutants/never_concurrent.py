"""script compiles nothing: scripted forks run synchronously, one after the other."""

from typing import Any

from conformance.adapter import Adapter
from tests.mutants._base import mutant


def script(fn: Any) -> Any:
    return fn


def adapter() -> Adapter:
    return mutant("never-concurrent", script=script)
