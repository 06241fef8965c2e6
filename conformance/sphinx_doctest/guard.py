"""``python -m conformance.sphinx_doctest``: pytest with the plugin, whose end is vouched for.

Under ``python -m pytest -p conformance.sphinx_doctest`` (``-n 0``) the tests
run in the pytest process itself: one that ends the process (``os._exit(0)``,
an extension module calling ``exit()``) ends the run there, with *its* exit
status, after a lone ``.`` - a CI job would read 0 as a pass, the later tests
never run. Nothing inside that process can catch it, so this command runs
pytest as a child and checks that the run reached its own end: the child's
plugin (:class:`Witness`) notes each test as it starts and, last of all, that
the session ended. A child that ended without that note ended early: the
command names the test that was running and exits 1, whatever status the
child left. With ``-n N`` the tests run in pytest-xdist's workers, where a
worker that dies fails its test and the run goes on; the guard costs the same
either way (one more process start-up), so it is always on.

Only the standard library is imported here: this process just waits.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

#: the variable that tells the child's plugin where to leave its notes
NOTES_ENV = "SPHINX_DOCTEST_RUN_NOTES"
#: the child's first note, once the plugin is configured
CONFIGURED = "configured"
#: the child's last note when its session ended (pytest_unconfigure)
ENDED = "ended"
#: the test a note names as started
STARTED = "started "
#: pytest's ExitCode.TESTS_FAILED (this process does not import pytest)
TESTS_FAILED = 1
_FORWARDED = (signal.SIGTERM, signal.SIGHUP)
PROG = "python -m conformance.sphinx_doctest"


class Witness:
    """The child's side: where the run is, kept in the notes file (one line, rewritten)."""

    def __init__(self, path: Path) -> None:
        self._path = path

    @classmethod
    def from_environment(cls) -> Witness | None:
        """The witness this run was asked for, if any. The variable is removed, so a
        pytest run by a test inherits no witness and cannot write the notes."""
        notes = os.environ.pop(NOTES_ENV, None)
        if not notes:
            return None
        witness = cls(Path(notes))
        witness._note(CONFIGURED)
        return witness

    def _note(self, text: str) -> None:
        with contextlib.suppress(OSError):  # the guard's folder gone: it vouches for nothing
            self._path.write_text(text, encoding="utf-8", errors="backslashreplace")

    def pytest_runtest_logstart(self, nodeid: str, location: object) -> None:
        self._note(STARTED + nodeid)

    def pytest_unconfigure(self, config: object) -> None:
        self._note(ENDED)


def _early_end(notes: str, status: int) -> str:
    """What to say of a child that ended without ending its session."""
    how = f"with status {status}" if status >= 0 else f"killed by {signal.Signals(-status).name}"
    where = (
        f"while {notes[len(STARTED) :]} was running"
        if notes.startswith(STARTED)
        else "before any test started"
    )
    return (
        f"{PROG}: the test process ended {how} {where} (a test that calls os._exit or "
        "exit(), or a crash): the run did not reach its end and the tests after it did not "
        "run; add -n 1 to run each document in a worker whose death fails one test only"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory(prefix="sphinx-doctest-run-") as folder:
        notes = Path(folder) / "notes"
        environment = {**os.environ, NOTES_ENV: str(notes)}
        command = [sys.executable, "-m", "pytest", "-p", "conformance.sphinx_doctest", *args]
        child = subprocess.Popen(command, env=environment)  # noqa: S603 - our own pytest

        def forward(signum: int, frame: FrameType | None) -> None:
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signum)

        previous = {signum: signal.signal(signum, forward) for signum in _FORWARDED}
        # Ctrl-C reaches the child from the terminal; one sent to this process alone too
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, forward)
        try:
            status = child.wait()
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
        said = notes.read_text(encoding="utf-8") if notes.is_file() else None
    if said is None or said == ENDED:  # the session's end, or pytest stopped before it began
        return status if status >= 0 else 128 - status
    print(f"\n{_early_end(said, status)}", file=sys.stderr)
    return TESTS_FAILED if status <= 0 else status


__all__ = ["CONFIGURED", "ENDED", "NOTES_ENV", "STARTED", "Witness", "main"]
