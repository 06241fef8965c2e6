"""A top-level scripted call converts its arguments, as TorchScript converts a Python list
into a new list of its own: lists, dicts and tuples arrive as new ones (futures and other
values in them as they were)."""

from __future__ import annotations

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="DET-NO-COPY-1",
    granted="Calling into scripted code from Python is another matter: a compiler MAY convert "
    "Python arguments into its own values at that boundary, as TorchScript converts a Python "
    "list into a new TorchScript list.",
    shows="""
def same(items: list[int]) -> list[int]:
    return items

mine = [1]
print(fw.script(same)(mine) is mine)
""",
)


def converted(value: Any) -> Any:
    """A new list, dict or tuple, its items converted too; anything else as it is."""
    if isinstance(value, list):
        return [converted(item) for item in value]
    if isinstance(value, tuple):
        return tuple(converted(item) for item in value)
    if isinstance(value, dict):
        return {key: converted(item) for key, item in value.items()}
    return value


class Converting:
    """A scripted function or module whose top-level calls convert their arguments."""

    def __init__(self, compiled: Any) -> None:
        self._compiled = compiled

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        if not local.state.scripted:  # a call from plain Python
            args = converted(args)
            kwargs = {key: converted(value) for key, value in kwargs.items()}
        return self._compiled(*args, **kwargs)

    def forward(self, /, *args: Any, **kwargs: Any) -> Any:
        return self(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:  # a scripted module's attributes are its own
        if name == "_compiled":
            raise AttributeError(name)
        return getattr(self._compiled, name)


def script(obj: Any, /) -> Converting:
    return Converting(ref.script(obj))


def adapter() -> Adapter:
    return variant("scripted-calls-convert-arguments", script=script)
