"""Interpreter state an example may leave changed, checked and restored between examples.

Cheap to compare and to put back, and either the executor itself depends on
it or it decides whether a *later* example passes: the recursion limit (a low
one breaks encoding the next answer), the standard streams (``sys.std*`` and
``sys.__std*__``, replaced or closed) and their descriptors, ``sys.displayhook``,
the builtins (a ``print`` replaced by a no-op would hide what a later example
prints where it must print nothing), the working directory, the environment,
every signal's handler (``SIGPIPE``'s included) and the signal mask,
faulthandler's, and the code that judges an example (``doctest``'s module and
the classes of the runner and its output checker: a checker patched to agree
would pass every later example), and the public names of ``fw``. An example
that changes one of these keeps the change for its own run only; the next
example starts from the state the executor started with (a difference from
``sphinx-build``, where it would carry on to the rest of the document).
docs/limits.rst says what is not restored, and why.
"""

from __future__ import annotations

import builtins
import doctest
import faulthandler
import io
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from conformance.sphinx_doctest.capped import CappedOutput
from conformance.sphinx_doctest.runners import QuietRunner

#: sent by the harness: raise a timeout into the example (handler below)
SOFT_SIGNAL = signal.SIGUSR2
#: what sets the deadline an example is held to, as a failure names it
DEADLINE_SETTING = "--example-timeout"
#: sent by the harness: dump every thread's stack (faulthandler), before the kill
DUMP_SIGNAL = signal.SIGUSR1
#: every signal whose handler Python can set; DUMP_SIGNAL is faulthandler's (re-armed below)
_HANDLED = tuple(
    signum
    for signum in sorted(signal.valid_signals())
    if signum not in (signal.SIGKILL, signal.SIGSTOP, DUMP_SIGNAL)
)
_STREAMS = ("stdin", "stdout", "stderr", "__stdin__", "__stdout__", "__stderr__")
#: what displayhook sets after each ``>>>`` expression: doctest's, not the example's
_SCRATCH_BUILTINS = frozenset({"_"})
#: where an example's verdict is decided: a patch to one of these could pass a later example
_JUDGES: tuple[type, ...] = (QuietRunner, doctest.OutputChecker, CappedOutput, doctest.Example)


def _judging_classes() -> list[type]:
    """The classes (with their bases) that run and judge an example, less C types."""
    found: list[type] = []
    for judge in _JUDGES:
        found += [c for c in judge.__mro__ if c.__module__ not in ("builtins", "_io", "io")]
    return list(dict.fromkeys(found))


@dataclass
class Snapshot:
    recursion_limit: int
    streams: dict[str, Any]
    #: a duplicate of descriptors 0, 1 and 2 as they were, and what they were (st_dev, st_ino)
    descriptors: dict[int, tuple[int, tuple[int, int]]]
    displayhook: Any
    builtins: dict[str, Any]
    cwd: str
    environ: dict[str, str]
    handlers: dict[int, Any]
    mask: set[int]
    #: vars() of doctest and of each judging class, as they were
    judges: dict[Any, dict[str, Any]]
    #: the ``fw`` examples call: its public names as they were, and the object
    fw: tuple[Any, dict[str, Any]] | None
    dump: IO[str]
    restored: list[str] = field(default_factory=list)


def arm_faulthandler(dump: IO[str]) -> None:
    faulthandler.enable(file=dump, all_threads=True)  # a crash's stacks land in the dump
    faulthandler.register(DUMP_SIGNAL, file=dump, all_threads=True, chain=False)


def install_soft_timeout(handler: Callable[[int, Any], None]) -> None:
    signal.signal(SOFT_SIGNAL, handler)


def _identity(fd: int) -> tuple[int, int] | None:
    try:
        about = os.fstat(fd)
    except OSError:
        return None
    return about.st_dev, about.st_ino


def _descriptors() -> dict[int, tuple[int, tuple[int, int]]]:
    kept = {}
    for fd in (0, 1, 2):
        identity = _identity(fd)
        if identity is not None:
            kept[fd] = (os.dup(fd), identity)
    return kept


def _public(namespace: Any) -> dict[str, Any]:
    """The public names of ``fw`` (fork, wait...): its private ones are the
    implementation's own state, which changes as it works (pools, caches)."""
    return {k: v for k, v in getattr(namespace, "__dict__", {}).items() if not k.startswith("_")}


def snapshot(dump: IO[str], fw: Any = None) -> Snapshot:
    judges: dict[Any, dict[str, Any]] = {doctest: dict(vars(doctest))}
    judges.update((cls, dict(vars(cls))) for cls in _judging_classes())
    return Snapshot(
        recursion_limit=sys.getrecursionlimit(),
        streams={name: getattr(sys, name) for name in _STREAMS},
        descriptors=_descriptors(),
        displayhook=sys.displayhook,
        builtins=dict(vars(builtins)),
        cwd=os.getcwd(),
        environ=dict(os.environ),
        handlers={signum: signal.getsignal(signum) for signum in _HANDLED},
        mask=set(signal.pthread_sigmask(signal.SIG_BLOCK, ())),
        judges=judges,
        fw=None if fw is None else (fw, _public(fw)),
        dump=dump,
    )


def _restore_namespace(
    owner: Any, saved: dict[str, Any], keep: frozenset[str], *, added: bool = True
) -> bool:
    """Put ``vars(owner)`` back as ``saved`` (reassigned and deleted names, and with
    ``added`` the new ones too); changed?"""
    now = vars(owner)
    changed = False
    for name in [n for n in now if added and n not in saved and n not in keep]:
        delattr(owner, name)
        changed = True
    for name, value in saved.items():
        if name not in keep and now.get(name, _MISSING) is not value:
            setattr(owner, name, value)
            changed = True
    return changed


_MISSING = object()


def _reopened(name: str, stream: io.TextIOWrapper) -> io.TextIOWrapper:
    """A closed standard stream made anew on its descriptor (which it does not own)."""
    fd = _STREAMS.index(name) % 3
    return io.TextIOWrapper(
        open(fd, "rb" if fd == 0 else "wb", closefd=False),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
    )


def _restore_streams(saved: Snapshot, changed: list[str]) -> None:
    for fd, (copy, identity) in saved.descriptors.items():
        if _identity(fd) != identity and _identity(copy) == identity:
            os.dup2(copy, fd)
            changed.append(f"descriptor {fd}")
    reopened: dict[int, Any] = {}  # sys.stdout is sys.__stdout__: one new object for both
    for name, was in list(saved.streams.items()):
        stream = was
        if isinstance(was, io.TextIOWrapper) and was.closed:
            if id(was) not in reopened:
                reopened[id(was)] = _reopened(name, was)
                changed.append(f"sys.{name} (closed)")
            saved.streams[name] = stream = reopened[id(was)]
        if getattr(sys, name) is not stream:
            setattr(sys, name, stream)
            changed.append(f"sys.{name}")


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:  # a real-time signal
        return f"signal {signum}"


def restore(saved: Snapshot) -> list[str]:
    """Put back what an example changed; the names of what was changed."""
    changed: list[str] = []
    if sys.getrecursionlimit() != saved.recursion_limit:
        sys.setrecursionlimit(saved.recursion_limit)
        changed.append("recursion limit")
    _restore_streams(saved, changed)
    if sys.displayhook is not saved.displayhook:
        sys.displayhook = saved.displayhook
        changed.append("sys.displayhook")
    if _restore_namespace(builtins, saved.builtins, _SCRATCH_BUILTINS):
        changed.append("builtins")
    if saved.fw is not None and _restore_namespace(*saved.fw, frozenset(), added=False):
        changed.append("fw")
    for owner, names in saved.judges.items():
        if _restore_namespace(owner, names, frozenset()):
            changed.append(getattr(owner, "__qualname__", getattr(owner, "__name__", "?")))
    try:
        moved = os.getcwd() != saved.cwd
    except OSError:  # the folder it moved to was removed
        moved = True
    if moved:
        os.chdir(saved.cwd)
        changed.append("working directory")
    if dict(os.environ) != saved.environ:
        os.environ.clear()
        os.environ.update(saved.environ)
        changed.append("environment")
    for signum, handler in saved.handlers.items():
        if handler is not None and signal.getsignal(signum) != handler:
            signal.signal(signum, handler)
            changed.append(f"handler of {_signal_name(signum)}")
    if set(signal.pthread_sigmask(signal.SIG_SETMASK, saved.mask)) != saved.mask:
        changed.append("signal mask")
    arm_faulthandler(saved.dump)  # cheap, and an example may have replaced either
    return changed


__all__ = [
    "DEADLINE_SETTING",
    "DUMP_SIGNAL",
    "SOFT_SIGNAL",
    "Snapshot",
    "arm_faulthandler",
    "install_soft_timeout",
    "restore",
    "snapshot",
]
