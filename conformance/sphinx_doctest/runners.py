"""Sphinx's doctest runner, made to tell every failure and to survive what a test raises.

``SphinxDocTestRunner`` runs each ``DocTest`` exactly as under ``sphinx-build``;
the subclass here also keeps each failing example with its true place (for
failures.py). A ``KeyboardInterrupt`` raised by the code under test fails the
example it came from instead of ending the run: only a real Ctrl-C (SIGINT)
stops it. pytest's own control flow raised inside an example (a pytest-timeout
deadline, ``pytest.exit``) ends the item, as in any pytest test.
"""

from __future__ import annotations

import doctest
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import Any

from _pytest.outcomes import OutcomeException
from sphinx.ext.doctest import SphinxDocTestRunner

from conformance.sphinx_doctest.capped import CappedOutput
from conformance.sphinx_doctest.compiling import Compiler, Place, compiling, format_exception
from conformance.sphinx_doctest.model import Location
from conformance.sphinx_doctest.outcome import FailureKind

ExcInfo = tuple[type[BaseException], BaseException, TracebackType]
#: prefix of the note on an exception that stopped an example: its traceback at true lines
WHERE_NOTE = "where the example was:\n"
Out = Callable[[str], object]

# -- Ctrl-C ----------------------------------------------------------------------

_user_interrupt = threading.Event()


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _user_interrupt.set()
    raise KeyboardInterrupt


def install_interrupt_handler() -> None:
    """Tell a Ctrl-C (SIGINT) apart from a KeyboardInterrupt the code under test raises."""
    on_main_thread = threading.current_thread() is threading.main_thread()
    if on_main_thread and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)


def user_interrupted() -> bool:
    return _user_interrupt.is_set()


# -- results ---------------------------------------------------------------------


@dataclass(frozen=True)
class ExampleFailure:
    """One failing example, with what a reader needs to find and understand it."""

    source: str
    location: Location
    #: the example's first line in ``location.path``, if known
    line: int | None
    #: OUTPUT (it printed something else) or EXCEPTION (it raised)
    kind: FailureKind
    #: doctest's Expected/Got text, or the traceback at true lines
    detail: str
    #: the exception's type name, for an EXCEPTION failure
    exception: str | None = None


@dataclass
class DoctestResult:
    """What running one DocTest did."""

    tries: int = 0
    failures: list[ExampleFailure] = field(default_factory=list)
    #: the doctest report, as sphinx-build writes it to output.txt
    report: str = ""

    @property
    def failed(self) -> bool:
        return bool(self.failures)


class Runner(SphinxDocTestRunner):
    """Sphinx's runner, also keeping each failure with its true place."""

    def __init__(self, optionflags: int) -> None:
        super().__init__(verbose=False, optionflags=optionflags)
        # an output flood must not stay in the worker (capped.py); set as doctest does,
        # without declaring the private attribute's type here
        setattr(self, "_fakeout", CappedOutput())  # noqa: B010
        self.places: list[Place] = []
        self.collected: list[ExampleFailure] = []
        self.current: doctest.Example | None = None

    def _fail(self, test: doctest.DocTest, example: doctest.Example, kind: FailureKind, detail: str,
              exception: str | None = None) -> None:  # fmt: skip
        location, offset = self.places[test.examples.index(example)]
        line = None if location.line is None else location.line + offset
        self.collected.append(
            ExampleFailure(example.source, location, line, kind, detail, exception)
        )

    def report_start(self, out: Out, test: doctest.DocTest, example: doctest.Example) -> None:
        self.current = example
        super().report_start(out, test, example)

    def report_failure(
        self, out: Out, test: doctest.DocTest, example: doctest.Example, got: str
    ) -> None:
        detail = self._checker.output_difference(example, got, self.optionflags)  # type: ignore[attr-defined]
        self._fail(test, example, FailureKind.OUTPUT, detail)
        super().report_failure(out, test, example, got)

    def report_unexpected_exception(
        self, out: Out, test: doctest.DocTest, example: doctest.Example, exc_info: ExcInfo
    ) -> None:
        if isinstance(exc_info[1], OutcomeException):
            raise exc_info[1]  # doctest's bare except caught pytest's control flow: let it go
        detail = format_exception(exc_info[1])
        self._fail(test, example, FailureKind.EXCEPTION, detail, exc_info[0].__qualname__)
        super().report_unexpected_exception(out, test, example, exc_info)


class QuietRunner(Runner):
    """Replays earlier tests to rebuild a namespace: prints nothing, keeps its failures."""

    def report_start(self, out: Out, test: doctest.DocTest, example: doctest.Example) -> None:
        self.current = example

    def report_success(self, *args: Any) -> None:
        pass

    def report_failure(
        self, out: Out, test: doctest.DocTest, example: doctest.Example, got: str
    ) -> None:
        detail = self._checker.output_difference(example, got, self.optionflags)  # type: ignore[attr-defined]
        self._fail(test, example, FailureKind.OUTPUT, detail)  # kept, not printed

    def report_unexpected_exception(
        self, out: Out, test: doctest.DocTest, example: doctest.Example, exc_info: ExcInfo
    ) -> None:
        if isinstance(exc_info[1], OutcomeException):
            raise exc_info[1]  # a deadline while replaying still ends the item
        self._fail(test, example, FailureKind.EXCEPTION, format_exception(exc_info[1]),
                   exc_info[0].__qualname__)  # fmt: skip


def run_doctest(
    runner: Runner, compiler: Compiler, test: doctest.DocTest, mode: str, places: list[Place]
) -> DoctestResult:
    """``runner.run(test)`` as Sphinx calls it; a stray KeyboardInterrupt fails its example."""
    report: list[str] = []
    runner.places = places
    runner.collected = []
    runner.current = None
    before = runner.tries
    with compiling(compiler, mode, test, places):
        try:
            runner.run(test, out=report.append, clear_globs=False)
        except OutcomeException as exc:
            # pytest's own control flow (a pytest-timeout deadline, pytest.exit) raised
            # inside an example: it ends the item, as in any pytest test. Where it struck
            # is told now, while the example's code is known (see failures.py).
            runner._fakeout.truncate(0)  # type: ignore[attr-defined]
            exc.add_note(WHERE_NOTE + format_exception(exc))
            raise
        except KeyboardInterrupt as exc:
            if user_interrupted():
                raise
            runner._fakeout.truncate(0)  # type: ignore[attr-defined]  # as doctest does
            example = runner.current or test.examples[0]
            runner._fail(
                test,
                example,
                FailureKind.EXCEPTION,
                "the code under test raised KeyboardInterrupt (this was not a Ctrl-C):\n"
                + format_exception(exc),
                type(exc).__qualname__,
            )
            report.append(f"{test.filename}: an example raised KeyboardInterrupt\n")
    return DoctestResult(runner.tries - before, runner.collected, "".join(report))


__all__ = [
    "WHERE_NOTE",
    "DoctestResult",
    "ExampleFailure",
    "QuietRunner",
    "Runner",
    "install_interrupt_handler",
    "run_doctest",
    "user_interrupted",
]
