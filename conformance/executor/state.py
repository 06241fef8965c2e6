"""Interpreter state an example may leave changed, checked and restored between examples.

Cheap to compare and to put back, and the executor itself depends on it:
the recursion limit (a low one breaks encoding the next answer), the
standard streams, the working directory, the environment, the handlers of
the signals the harness sends (and SIGINT's), and faulthandler's. An example
that changes one of these keeps the change for its own run only; the next
example starts from the state the executor started with (a difference from
``sphinx-build``, where it would carry on to the rest of the document).
Anything else (threads left running, modules patched) is not restored.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

#: sent by the harness: raise a timeout into the example (handler below)
SOFT_SIGNAL = signal.SIGUSR2
#: what sets the deadline an example is held to, as a failure names it
DEADLINE_SETTING = "--example-timeout"
#: sent by the harness: dump every thread's stack (faulthandler), before the kill
DUMP_SIGNAL = signal.SIGUSR1
_HANDLED = (signal.SIGINT, signal.SIGTERM, SOFT_SIGNAL)


@dataclass
class Snapshot:
    recursion_limit: int
    streams: tuple[Any, ...]
    cwd: str
    environ: dict[str, str]
    handlers: dict[int, Any]
    dump: IO[str]
    restored: list[str] = field(default_factory=list)


def arm_faulthandler(dump: IO[str]) -> None:
    faulthandler.enable(file=dump, all_threads=True)  # a crash's stacks land in the dump
    faulthandler.register(DUMP_SIGNAL, file=dump, all_threads=True, chain=False)


def install_soft_timeout(handler: Callable[[int, Any], None]) -> None:
    signal.signal(SOFT_SIGNAL, handler)


def snapshot(dump: IO[str]) -> Snapshot:
    return Snapshot(
        recursion_limit=sys.getrecursionlimit(),
        streams=(sys.stdin, sys.stdout, sys.stderr),
        cwd=os.getcwd(),
        environ=dict(os.environ),
        handlers={signum: signal.getsignal(signum) for signum in _HANDLED},
        dump=dump,
    )


def restore(saved: Snapshot) -> list[str]:
    """Put back what an example changed; the names of what was changed."""
    changed: list[str] = []
    if sys.getrecursionlimit() != saved.recursion_limit:
        sys.setrecursionlimit(saved.recursion_limit)
        changed.append("recursion limit")
    if (sys.stdin, sys.stdout, sys.stderr) != saved.streams:
        sys.stdin, sys.stdout, sys.stderr = saved.streams
        changed.append("standard streams")
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
        if signal.getsignal(signum) != handler:
            signal.signal(signum, handler)
            changed.append(f"handler of {signal.Signals(signum).name}")
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
