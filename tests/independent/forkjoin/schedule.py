"""Top-level scripted calls: where a chosen schedule would take over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def scripted_call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run a scripted body in the caller's own context, as any call runs."""
    return fn(*args, **kwargs)
