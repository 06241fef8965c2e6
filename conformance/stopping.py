"""How ``forkwait-conformance`` is stopped: Ctrl-C, SIGTERM and SIGHUP, from its first moment.

Imports nothing heavy, so that the command owns these signals before it imports
pytest, Sphinx or the suite (seconds on a loaded machine): a run stopped at any
moment then ends as a stopped run (exit status 2, a report marked interrupted),
never as a death by signal or a traceback.
"""

from __future__ import annotations

import signal
from pathlib import Path
from types import FrameType

#: signals that stop a run as Ctrl-C does (``timeout``, ``docker stop``, a closed terminal)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
#: the ``--report`` path once the run has checked it and removed an earlier report there:
#: a file found there afterwards is this run's own
claimed: list[Path] = []


#: the stop signal received, if any: a stop that lands inside an import can leave a module
#: half made, so that what fails next is an import, not a KeyboardInterrupt
received: list[str] = []


def _stop(signum: int, frame: FrameType | None) -> None:
    """Stop the run as Ctrl-C does: pytest ends the session, the plugin ends the workers
    and writes the report marked interrupted; exit status 2. Once is enough."""
    for other in STOP_SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    received.append(f"stopped by {signal.Signals(signum).name}")
    raise KeyboardInterrupt(received[-1])


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C as Python's own handler does it, noted."""
    received.append("stopped by Ctrl-C (SIGINT)")
    raise KeyboardInterrupt


def stop_like_ctrl_c() -> None:
    """Treat SIGTERM and SIGHUP as Ctrl-C (unless they are ignored, as under nohup), and
    note each stop, Ctrl-C's too."""
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is signal.SIG_DFL:
            signal.signal(signum, _stop)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt)


def hold_stops() -> None:
    """Ignore further stops while the stopped run's report is written: only the first
    counts."""
    for signum in (signal.SIGINT, *STOP_SIGNALS):
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, signal.SIG_IGN)


__all__ = ["STOP_SIGNALS", "claimed", "hold_stops", "received", "stop_like_ctrl_c"]
