"""script, Module and ignore: the TorchScript-shaped surface of the reference.

"Scripting" here compiles nothing. It marks the calling thread as running
scripted code for the duration of a call, which is what makes forks
asynchronous, so the same function gives the same result either way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ParamSpec, TypeVar, overload

from reference_impl import _interceptors
from reference_impl._thread_state import local

P = ParamSpec("P")
T = TypeVar("T")
M = TypeVar("M", bound="Module")


class Module:
    """A minimal ``torch.nn.Module``: calling the module calls ``forward``."""

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__qualname__} does not define forward()")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)


class ModuleList(Module):
    """A minimal ``torch.nn.ModuleList``: modules in order, for ensembles.

    Iterating, ``len`` and indexing give the modules; scripted code may loop
    over one held as an attribute, as TorchScript code loops over its own.
    """

    def __init__(self, modules: Iterable[Module] = ()) -> None:
        self._items = list(modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> Module:
        return self._items[index]

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end; returns this list, as torch's does."""
        self._items.append(module)
        return self


class ScriptModule(Module):
    """What ``script(module)`` returns: ``forward`` and calls run as scripted code.

    Every other attribute is the wrapped module's own, so submodules and
    parameters stay reachable as on a ``torch.jit.ScriptModule``.
    """

    def __init__(self, module: Module, schedule: str | None = None) -> None:
        self._module = module
        self._forward = _scripted(module.forward, schedule)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._forward(*args, **kwargs)

    @property
    def original(self) -> Module:
        """The module that was scripted."""
        return self._module

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_module", "_forward"):
            raise AttributeError(name)
        return getattr(self._module, name)

    def __repr__(self) -> str:
        return f"ScriptModule({self._module!r})"


def _scripted(func: Callable[P, T], schedule: str | None = None) -> Callable[P, T]:
    @functools.wraps(func)
    def run_scripted(*args: P.args, **kwargs: P.kwargs) -> T:
        thread = local.state
        outer = thread.scripted
        scheduler = _interceptors.scheduler
        if not outer and thread.run is None and scheduler is not None:  # a top-level call
            spec = scheduler.selected(schedule)
            if spec is not None:  # a controlled schedule: see reference_impl.schedules
                return scheduler.run(spec, functools.partial(func, *args, **kwargs))
        thread.scripted = True
        try:
            return func(*args, **kwargs)
        finally:
            thread.scripted = outer

    return run_scripted


@overload
def script(obj: M, *, schedule: str | None = None) -> ScriptModule: ...
@overload
def script(obj: Callable[P, T], *, schedule: str | None = None) -> Callable[P, T]: ...
def script(obj: Any, *, schedule: str | None = None) -> Any:
    """Return a version of ``obj`` whose calls run as scripted code.

    ``obj`` is a function (any callable) or a :class:`Module`; for a module the
    result is a :class:`ScriptModule`. Inside a scripted call forks run on the
    worker pool in parallel; results are those of the unscripted call.

    ``schedule`` (or ``$FORKWAIT_SCHEDULE``) runs each top-level call under a
    controlled schedule instead (``fifo``, ``lifo``, ``random:SEED``,
    ``pct:SEED:DEPTH``): one task at a time, switching only at fork and wait,
    in a replayable order.

    Raises:
        TypeError: ``obj`` is neither callable nor a Module.
        ValueError: ``schedule`` is not a schedule.
    """
    if schedule is not None:
        _interceptors.installed_scheduler().check(schedule)
    if isinstance(obj, ScriptModule):
        return obj
    if isinstance(obj, Module):
        return ScriptModule(obj, schedule)
    if not callable(obj):
        raise TypeError(f"script() expects a function or a Module, got {type(obj).__name__}")
    return _scripted(obj, schedule)


def ignore(func: Callable[P, T]) -> Callable[P, T]:
    """Mark ``func`` as plain Python callable from scripted code.

    The reference runs all code as Python, so this returns ``func`` itself; it
    exists so portable examples can say what ``torch.jit.ignore`` must be told.
    """
    if not callable(func):
        raise TypeError(f"ignore() expects a function, got {type(func).__name__}")
    return func
