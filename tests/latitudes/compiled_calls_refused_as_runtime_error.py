"""A function or module compiled by fw.script refuses a call its signature does not accept
with RuntimeError, as torch's compiled callables do."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="KWARGS-UNKNOWN-1",
    granted="A function or module compiled by fw.script MAY raise an Exception of another type.",
    shows="""
def pair(a: int, b: int = 0) -> int:
    return a + b

try:
    fw.wait(fw.fork(fw.script(pair), 1, c=2))
except Exception as error:
    print(type(error).__name__)
""",
)


def _check(target: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """A schema check: a call ``target``'s signature does not accept is a RuntimeError."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # no signature to check (some builtins)
        return
    try:
        signature.bind(*args, **kwargs)
    except TypeError as error:
        raise RuntimeError(f"{getattr(target, '__name__', target)!s}: {error}") from None


class _CheckedModule(ref.ScriptModule):
    """A scripted module whose calls are checked against its ``forward``'s signature."""

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        _check(self.original.forward, args, kwargs)
        return super().forward(*args, **kwargs)


def script(obj: Any, *, schedule: str | None = None) -> Any:
    """The reference's script; what it compiles checks its calls as a schema would."""
    scripted = ref.script(obj, schedule=schedule)
    if isinstance(obj, ref.ScriptModule):
        return scripted
    if isinstance(scripted, ref.ScriptModule):
        return _CheckedModule(obj, schedule)

    @functools.wraps(obj)
    def checked(*args: Any, **kwargs: Any) -> Any:
        _check(obj, args, kwargs)
        return scripted(*args, **kwargs)

    return checked


def adapter() -> Adapter:
    return variant("compiled-calls-refused-as-runtime-error", script=script)
