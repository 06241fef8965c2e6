"""``script``, ``ignore`` and modules.

There is no compiler: a scripted function runs its Python body, whose forks go
to the pool as every fork does, so scripted code is as asynchronous as the spec
asks and as dynamic as Python. ``script`` still wraps what it is given, so that
a call from plain Python is known to be a top-level scripted call (a schedule
applies to those), and rejects what it cannot compile.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from . import schedule

T = TypeVar("T")


class Module:
    """The base class of modules: calling one calls its ``forward``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} defines no forward()")


class ModuleList(Module):
    """Modules in order; each ``for`` loop over it gets an iterator of its own."""

    def __init__(self, modules: Iterable[Module] = ()) -> None:
        self._modules = list(modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules))

    def __len__(self) -> int:
        return len(self._modules)

    def __getitem__(self, index: int) -> Module:
        return self._modules[index]


class ScriptFunction:
    """A function given to ``script``: calling it runs the body as scripted code."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self._fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        return schedule.scripted_call(self._fn, args, kwargs)

    def __repr__(self) -> str:
        return f"<scripted {getattr(self._fn, '__qualname__', self._fn)!r}>"


class ScriptModule(Module):
    """A module given to ``script``: its ``forward`` and its call run as scripted code;
    its other attributes are the module's."""

    def __init__(self, module: Module) -> None:
        object.__setattr__(self, "_module", module)

    def forward(self, /, *args: Any, **kwargs: Any) -> Any:
        return schedule.scripted_call(self._module.forward, args, kwargs)

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_module"), name)

    def __repr__(self) -> str:
        return f"<scripted {type(self._module).__name__}>"


def script(obj: Any) -> Any:
    """Compile ``obj``, a function or a module instance, into its scripted version."""
    if isinstance(obj, ScriptFunction | ScriptModule):
        return obj
    if isinstance(obj, Module):
        return ScriptModule(obj)
    if isinstance(obj, type) or not callable(obj):
        raise TypeError(f"script needs a function or a Module instance, got {obj!r}")
    return ScriptFunction(obj)


def ignore(fn: Callable[..., T]) -> Callable[..., T]:
    """Mark ``fn`` as plain Python for scripted code: it is called as it is, in its
    caller's context; under a schedule, a call of it is one more point where the
    schedule may switch tasks (what such a call does is what a program observes)."""
    if not callable(fn):
        raise TypeError(f"ignore needs a callable, got {fn!r}")

    @functools.wraps(fn)
    def plain(*args: Any, **kwargs: Any) -> T:
        schedule.switch_point()
        return fn(*args, **kwargs)

    return plain
