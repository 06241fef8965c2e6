"""Build a mutant: the reference adapter with some ``fw`` names replaced."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter, Explorer
from conformance.adapters.reference import adapter as reference_adapter
from reference_impl._thread_state import local
from reference_impl.schedules.controlled import ControlledRun


def mutant(
    name: str,
    profiles: Iterable[str] | None = None,
    explorer: Explorer | None = None,
    **replacements: Any,
) -> Adapter:
    """The reference adapter, renamed, with ``fw.<key>`` replaced by each value.

    ``profiles`` narrows the claimed profiles (default: the reference's). Without an
    ``explorer`` (the default) the suite skips the rules that check one by itself.
    """
    base = reference_adapter()
    for key, value in replacements.items():
        setattr(base.fw, key, value)
    claimed = base.profiles if profiles is None else frozenset(profiles)
    return Adapter(
        name=f"mutant-{name}",
        version="0",
        fw=base.fw,
        profiles=claimed,
        explorer=explorer,
    )


class TopLevelScript:
    """A ``fw.script`` whose top-level scripted calls go through ``around(call)``.

    Calls made by scripted code or by tasks (not top-level) run as the reference's;
    ``around`` gets the call to make and returns what it gives: the mutation. An
    object, not a closure: examples pickle ``fw``'s names into a child interpreter,
    and ``around`` (a module's function) pickles by name.
    """

    def __init__(self, around: Callable[[Callable[[], Any]], Any]) -> None:
        self.around = around

    def __call__(self, obj: Any, **options: Any) -> Any:
        scripted = ref.script(obj, **options)
        if isinstance(obj, ref.Module):
            return scripted
        around = self.around

        @functools.wraps(obj)
        def call(*args: Any, **kwargs: Any) -> Any:
            if local.state.scripted or local.state.current is not None:  # not a top-level call
                return scripted(*args, **kwargs)
            return around(lambda: scripted(*args, **kwargs))

        return call


class AnyFuture(type):
    """Metaclass of a mutant's ``fw.Future`` subclass: every reference future is an instance.

    A mutant that changes what ``fw.Future()`` makes keeps forked futures
    ``fw.Future`` instances, as on the reference; ``type(f) is`` tells them apart.
    """

    def __instancecheck__(cls, instance: Any) -> bool:
        from reference_impl import Future  # noqa: PLC0415

        return isinstance(instance, Future)


class ScriptedModulesAs:
    """A ``fw.script`` whose scripted modules are made instances of ``cls``, a subclass of
    the reference's ``ScriptModule`` that carries the mutation; everything else is scripted
    as the reference scripts it. An object, not a closure, as :class:`TopLevelScript` says."""

    def __init__(self, cls: type[ref.ScriptModule]) -> None:
        self.cls = cls

    def __call__(self, obj: Any, **options: Any) -> Any:
        scripted = ref.script(obj, **options)
        if isinstance(scripted, ref.ScriptModule) and not isinstance(obj, ref.ScriptModule):
            scripted.__class__ = self.cls
        return scripted


class ScheduleWithTheRest:
    """An explorer's ``use``: the reference's schedule, with ``ControlledRun._run_the_rest``
    (how a controlled run finishes the tasks left when its top-level call returns) replaced
    by ``run_the_rest`` while it is in use. An object, not a closure, as
    :class:`TopLevelScript` says."""

    def __init__(self, run_the_rest: Callable[[ControlledRun], None]) -> None:
        self.run_the_rest = run_the_rest

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        reference = ControlledRun._run_the_rest
        ControlledRun._run_the_rest = self.run_the_rest  # type: ignore[method-assign,assignment]
        try:
            with ref.use_schedule(name):
                yield
        finally:
            ControlledRun._run_the_rest = reference  # type: ignore[method-assign]


def futures_waited_in_containers(value: Any) -> Any:
    """``value`` with each future directly inside a tuple or dict replaced by its value: what
    a runtime that converts containers into values of its own does to them."""
    if isinstance(value, tuple):
        return tuple(ref.wait(v) if isinstance(v, ref.Future) else v for v in value)
    if isinstance(value, dict):
        return {k: ref.wait(v) if isinstance(v, ref.Future) else v for k, v in value.items()}
    return value


class ForkChangingResults:
    """A ``fw.fork`` whose tasks give ``change(result)`` instead of their result (the
    mutation); a non-callable is refused as the reference refuses it. An object, not a
    closure, as :class:`TopLevelScript` says."""

    def __init__(self, change: Callable[[Any], Any]) -> None:
        self.change = change

    def __call__(self, func: Any, /, *args: Any, **kwargs: Any) -> Any:
        if not callable(func):
            return ref.fork(func, *args, **kwargs)  # raises TypeError, as the reference does
        return ref.fork(_changed, self.change, func, *args, **kwargs)


def _changed(change: Callable[[Any], Any], func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return change(func(*args, **kwargs))
