"""How an example can fail: one name per way, the same in every layer and in every report.

The engine tells two ways itself (an example printed something else, or
raised) and two of Sphinx's group semantics (its group's setup or cleanup
failed); whatever runs the examples adds the ways a run can stop one (its
deadline, a hang, a crash). Each is carried as a :class:`FailureKind` from
where it is known to the report, never re-read from a failure's text; a
report (the JSON, JUnit's ``failure_kind`` property, the triage view) writes
its value.
"""

from __future__ import annotations

from enum import StrEnum

from _pytest.outcomes import Failed


class FailureKind(StrEnum):
    """What made an example fail."""

    #: it printed something else than the document says
    OUTPUT = "output"
    #: it raised where the document expects no exception (or another one)
    EXCEPTION = "exception"
    #: its group's setup failed, or the replay that rebuilt its namespace: it did not run
    SETUP = "setup"
    #: its group's cleanup failed after it
    CLEANUP = "cleanup"
    #: it ran past its deadline, and the timeout raised into it stopped it
    TIMEOUT = "timeout"
    #: it ran past its deadline where nothing could interrupt it: its process was ended
    HANG = "hang"
    #: it ended the process that ran it (a signal, an exit, a broken channel)
    CRASH = "crash"
    #: anything else: an error of the harness, or of pytest around the example
    ERROR = "error"

    @property
    def absorbable(self) -> bool:
        """Can an expected failure absorb it? Only a test's own wrong output or exception:
        a timeout, hang or crash costs its deadline or its process every run, and a
        failed setup or cleanup is no failure of the test."""
        return self in (FailureKind.OUTPUT, FailureKind.EXCEPTION)

    @property
    def stops_the_process(self) -> bool:
        """Did it leave its process unfit to run more (threads stuck, or none left)? An
        example that did is never run again, not even to rebuild a namespace."""
        return self in (FailureKind.TIMEOUT, FailureKind.HANG, FailureKind.CRASH)


class DeadlineExceeded(Failed):
    """An example stopped at its deadline: the timeout raised into it, or one it swallowed.

    A pytest outcome, so that doctest's bare ``except`` lets it through and it ends
    the item (runners.py), carrying its deadline as a number, not in its text.
    """

    #: shown as ``DeadlineExceeded: ...`` at the end of a traceback, as pytest shows Failed
    __module__ = "builtins"

    def __init__(self, seconds: float, setting: str, detail: str = "") -> None:
        said = f"timed out after {seconds:g} s ({setting})" + (f": {detail}" if detail else "")
        super().__init__(said, pytrace=False)
        self.seconds = seconds
        #: the option or setting the deadline comes from (``--example-timeout``)
        self.setting = setting
        #: what else the runner knows (a timeout the example swallowed), or ""
        self.detail = detail


__all__ = ["DeadlineExceeded", "FailureKind"]
