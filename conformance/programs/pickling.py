"""Which part of a task cannot be pickled: what an engine that ships tasks to other
processes (Dask, Ray, loky) fails on, named.

Such an engine says "Could not pickle the task" and, at best, the type of the
object it stopped at. A task is a function with its closure cells, the
globals its code reads, its defaults, and the arguments it was forked with;
any of them may hold a lock, a generator or a context variable. This walks
down from the task to the innermost part that does not pickle, with the same
pickler such engines use (cloudpickle, when it is installed; else pickle), and
says the path: ``t1 -> its global note -> its global lock (_thread.lock):
TypeError: cannot pickle '_thread.lock' object``.
"""

from __future__ import annotations

import functools
import importlib
import pickle
import types
from collections.abc import Callable, Iterator

#: how deep the walk goes: a task's parts, their parts... (enough for any program here)
_DEPTH = 6
#: words of an exception (or one it was raised from) that failed to pickle something
_PICKLING_WORDS = ("pickl", "serializ")


def looks_like_pickling(error: BaseException) -> bool:
    """Whether ``error``, or an exception it was raised from or during, is about pickling."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        text = f"{type(current).__name__} {current}".lower()
        if any(word in text for word in _PICKLING_WORDS):
            return True
        current = current.__cause__ or current.__context__
    return False


def pickler() -> tuple[str, Callable[[object], bytes]]:
    """The name and ``dumps`` of the pickler engines use: cloudpickle if installed."""
    try:
        cloudpickle = importlib.import_module("cloudpickle")
    except ImportError:
        return "pickle", pickle.dumps
    dumps: Callable[[object], bytes] = cloudpickle.dumps
    return "cloudpickle", dumps


def _global_names(code: types.CodeType) -> Iterator[str]:
    """The global names a function's code (and the code nested in it) may read."""
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _global_names(constant)


def _parts(obj: object) -> Iterator[tuple[str, object]]:
    """What pickling ``obj`` by value pickles: its parts, each with how to name it."""
    if isinstance(obj, types.FunctionType):
        cells = zip(obj.__code__.co_freevars, obj.__closure__ or (), strict=True)
        for name, cell in cells:
            try:
                yield f"its closure cell {name}", cell.cell_contents
            except ValueError:  # an empty cell
                continue
        for name in dict.fromkeys(_global_names(obj.__code__)):
            if name in obj.__globals__:
                yield f"its global {name}", obj.__globals__[name]
        defaults = obj.__defaults__ or ()
        named = obj.__code__.co_varnames[: obj.__code__.co_argcount][-len(defaults) :]
        yield from ((f"its default {name}", d) for name, d in zip(named, defaults, strict=False))
        for name, default in (obj.__kwdefaults__ or {}).items():
            yield f"its default {name}", default
    elif isinstance(obj, types.MethodType):
        yield "the object of the method", obj.__self__
        yield "its function", obj.__func__
    elif isinstance(obj, functools.partial):
        yield "its function", obj.func
        yield from ((f"its argument {i + 1}", a) for i, a in enumerate(obj.args))
        yield from ((f"its argument {k}", v) for k, v in obj.keywords.items())
    elif isinstance(obj, list | tuple | set | frozenset):
        yield from ((f"its item {i}", item) for i, item in enumerate(obj))
    elif isinstance(obj, dict):
        yield from ((f"its item {key!r}", value) for key, value in obj.items())
    wrapped = getattr(obj, "__wrapped__", None)
    if wrapped is not None and not isinstance(obj, types.FunctionType):
        yield "the function it wraps", wrapped


def _failure(dumps: Callable[[object], bytes], obj: object) -> str | None:
    try:
        dumps(obj)
    except Exception as exc:  # noqa: BLE001 - whatever the pickler raises is the finding
        return f"{type(exc).__name__}: {exc}"
    return None


def unpicklable_part(name: str, obj: object) -> str | None:
    """``name -> its global x -> ... (type): error``: the innermost part of ``obj`` that
    does not pickle, or None when ``obj`` pickles."""
    which, dumps = pickler()
    error = _failure(dumps, obj)
    if error is None:
        return None
    path = [name]
    seen = {id(obj)}
    for _ in range(_DEPTH):
        for label, part in _parts(obj):
            if id(part) in seen:
                continue
            inner = _failure(dumps, part)
            if inner is not None:
                path.append(label)
                obj, error = part, inner
                seen.add(id(part))
                break
        else:
            break
    kind = type(obj)
    return f"{' -> '.join(path)} ({kind.__module__}.{kind.__qualname__}), with {which}: {error}"


__all__ = ["looks_like_pickling", "pickler", "unpicklable_part"]
