"""``script`` and ``ignore``: the wrappers that mark scripted code and plain Python.

Nothing is compiled: a scripted function runs its Python body. What the
wrapper adds is where the call stands: a call from plain Python outside any
task is a *top-level scripted call*, which runs under the controlled schedule
of an enclosing ``use_schedule`` block, if any. Calls run in their caller's
context, never a copy.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from . import schedules, slots
from .modules import Module

F = TypeVar("F", bound=Callable[..., Any])


def _call_scripted(func: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    factory = schedules.chosen_policy()
    nested = schedules.current_participant() is not None or slots.current_task() is not None
    if factory is None or nested:
        return func(*args, **kwargs)
    schedule = schedules.Schedule(factory())
    main = schedule.start()
    schedules.set_participant(main)
    try:
        return func(*args, **kwargs)
    finally:
        schedule.drain(main)
        schedules.set_participant(None)


class ScriptedFunction:
    """A function given to ``script``: callable as the function is."""

    def __init__(self, func: Callable[..., Any]) -> None:
        functools.update_wrapper(self, func)
        self._func = func

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        return _call_scripted(self._func, args, kwargs)

    def __repr__(self) -> str:
        return f"<scripted {self._func!r}>"


class ScriptedModule(Module):
    """A module given to ``script``: its ``forward`` runs as scripted code."""

    def __init__(self, module: Module) -> None:
        super().__init__()
        self._module = module

    def forward(self, /, *args: Any, **kwargs: Any) -> Any:
        return _call_scripted(self._module.forward, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        """The module's attributes (its submodules, its parameters) show through."""
        module = self.__dict__.get("_module")
        if module is None:  # asked before __init__ set it (copy, pickle)
            raise AttributeError(name)
        return getattr(module, name)


def script(obj: Any) -> Any:
    """The scripted version of a function or of a module instance."""
    if isinstance(obj, ScriptedFunction | ScriptedModule):
        return obj
    if isinstance(obj, Module):
        return ScriptedModule(obj)
    if callable(obj):
        return ScriptedFunction(obj)
    raise TypeError(f"script() needs a function or a Module, got {type(obj).__name__}")


def ignore(func: F) -> F:
    """Mark ``func`` to run as plain Python when scripted code calls it: it is its own
    wrapper, since nothing here is compiled."""
    if not callable(func):
        raise TypeError(f"ignore() needs a callable, got {type(func).__name__}")
    return func
