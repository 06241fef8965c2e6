"""Run a document's groups as ``DocTestBuilder.test_group`` does, one test at a time.

Sphinx runs a whole group in one call; pytest needs one call per test. This
module splits ``test_group`` into its three steps - setup, one test, cleanup -
keeping everything Sphinx's semantics depend on: the same ``doctest.DocTest``
and ``Example`` objects (names, filenames, line numbers, option flags),
``SphinxDocTestRunner`` with one output spoof shared by the document's three
runners, a fresh namespace per group, Sphinx's compile modes (see
compiling.py), and a group whose setup failed running neither tests nor
cleanup.

Two things Sphinx cannot do are added. A group's namespace can be rebuilt:
when a test runs in a process that did not run the ones before it (``-k``, a
replaced xdist worker), the group's setup runs and the earlier tests are
replayed silently, as Sphinx would have run them. And a ``KeyboardInterrupt``
raised by the code under test fails that example instead of ending the run;
only a real Ctrl-C (SIGINT) stops it.
"""

from __future__ import annotations

import doctest
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import Any, TextIO

from _pytest.outcomes import OutcomeException
from sphinx.ext.doctest import DocTestBuilder, SphinxDocTestRunner, TestCode, TestGroup, parser

from conformance.sphinx_doctest.compiling import Place, compiling, format_exception
from conformance.sphinx_doctest.model import Location, Test, block_of

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
    #: "output" (it printed something else) or "exception" (it raised)
    kind: str
    #: doctest's Expected/Got text, or the traceback at true lines
    detail: str
    #: the exception's type name, for an "exception" failure
    exception: str | None = None


@dataclass
class RunResult:
    """What running one DocTest did."""

    tries: int = 0
    failures: list[ExampleFailure] = field(default_factory=list)
    #: the doctest report, as sphinx-build writes it to output.txt
    report: str = ""

    @property
    def failed(self) -> bool:
        return bool(self.failures)


class _Runner(SphinxDocTestRunner):
    """Sphinx's runner, also keeping each failure with its true place."""

    def __init__(self, optionflags: int) -> None:
        super().__init__(verbose=False, optionflags=optionflags)
        self.places: list[Place] = []
        self.collected: list[ExampleFailure] = []
        self.current: doctest.Example | None = None

    def _fail(self, test: doctest.DocTest, example: doctest.Example, kind: str, detail: str,
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
        self._fail(test, example, "output", detail)
        super().report_failure(out, test, example, got)

    def report_unexpected_exception(
        self, out: Out, test: doctest.DocTest, example: doctest.Example, exc_info: ExcInfo
    ) -> None:
        if isinstance(exc_info[1], OutcomeException):
            raise exc_info[1]  # doctest's bare except caught pytest's control flow: let it go
        detail = format_exception(exc_info[1])
        self._fail(test, example, "exception", detail, exc_info[0].__qualname__)
        super().report_unexpected_exception(out, test, example, exc_info)


class _QuietRunner(_Runner):
    """Replays earlier tests to rebuild a namespace: reports nothing to anyone."""

    def report_start(self, out: Out, test: doctest.DocTest, example: doctest.Example) -> None:
        self.current = example

    def report_success(self, *args: Any) -> None:
        pass

    def report_failure(self, *args: Any) -> None:
        pass

    def report_unexpected_exception(
        self, out: Out, test: doctest.DocTest, example: doctest.Example, exc_info: ExcInfo
    ) -> None:
        if isinstance(exc_info[1], OutcomeException):
            raise exc_info[1]  # a deadline while replaying still ends the item


def _run(
    runner: _Runner, builder: DocTestBuilder, test: doctest.DocTest, mode: str, places: list[Place]
) -> RunResult:
    """``runner.run(test)`` as Sphinx calls it; a stray KeyboardInterrupt fails its example."""
    report: list[str] = []
    runner.places = places
    runner.collected = []
    runner.current = None
    before = runner.tries
    with compiling(builder, mode, test, places):
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
                "exception",
                "the code under test raised KeyboardInterrupt (this was not a Ctrl-C):\n"
                + format_exception(exc),
                type(exc).__qualname__,
            )
            report.append(f"{test.filename}: an example raised KeyboardInterrupt\n")
    return RunResult(runner.tries - before, runner.collected, "".join(report))


# -- a document's groups -----------------------------------------------------------


class SetupFailed(Exception):
    """A group's setup failed: Sphinx then runs neither its tests nor its cleanup."""

    def __init__(self, group: str, result: RunResult, first: bool) -> None:
        super().__init__(group)
        self.group = group
        self.result = result
        #: False when an earlier test of the group already reported this failure
        self.first = first


@dataclass
class GroupState:
    namespace: dict[str, Any]
    setup: RunResult
    #: index of the next test this namespace has not seen
    next_test: int = 0
    cleaned: bool = False
    setup_reported: bool = False


#: a group's state is keyed by its name and a variant (such as a schedule), or None
StateKey = tuple[str, str | None]


class DocumentRun:
    """One document's groups and their namespaces, run the way Sphinx's builder does."""

    def __init__(
        self,
        groups: dict[str, TestGroup],
        builder: DocTestBuilder,
        replayable: Callable[[str, int], bool] = lambda group, index: True,
    ) -> None:
        self.groups = groups
        self.builder = builder
        optionflags: int = builder.config.doctest_default_flags
        self.optionflags = optionflags
        #: (group, test index) -> may that test be replayed to rebuild a namespace?
        self.replayable = replayable
        self.setup_runner = _Runner(optionflags)
        self.test_runner = _Runner(optionflags)
        self.cleanup_runner = _Runner(optionflags)
        # as in test_doc: the three runners share one output spoof
        shared: TextIO = self.setup_runner._fakeout  # type: ignore[attr-defined]
        self.test_runner._fakeout = shared  # type: ignore[attr-defined]
        self.cleanup_runner._fakeout = shared  # type: ignore[attr-defined]
        self.states: dict[StateKey, GroupState] = {}

    def prepare(self, group: str, index: int, variant: str | None = None) -> None:
        """Make the group's namespace what Sphinx's would be just before test ``index``.

        Raises:
            SetupFailed: the group's setup failed (now, or when it first ran).
        """
        key = (group, variant)
        state = self.states.get(key)
        if state is None or state.cleaned:
            namespace: dict[str, Any] = {}
            setup = self._setup_cleanup(group, "setup", namespace)
            state = self.states[key] = GroupState(namespace, setup)
        if state.setup.failed:
            first = not state.setup_reported
            state.setup_reported = True
            raise SetupFailed(group, state.setup, first)
        for earlier in range(state.next_test, index):
            if self.replayable(group, earlier):
                made = make_doctest(group, self.groups[group].tests[earlier], state.namespace)
                if made is not None:
                    _run(_QuietRunner(self.optionflags), self.builder, *made)
        state.next_test = index

    def run_test(self, group: str, index: int, variant: str | None = None) -> RunResult | None:
        """Run test ``index`` of a prepared group; None where Sphinx ignores the block."""
        state = self.states[(group, variant)]
        state.next_test = index + 1
        made = make_doctest(group, self.groups[group].tests[index], state.namespace)
        if made is None:
            return None
        return _run(self.test_runner, self.builder, *made)

    def cleanup(self, group: str, variant: str | None = None) -> RunResult | None:
        """Run the group's cleanup once, unless its setup failed; None if nothing ran."""
        state = self.states.get((group, variant))
        if state is None or state.cleaned:
            return None
        state.cleaned = True
        if state.setup.failed:
            return None
        result = self._setup_cleanup(group, "cleanup", state.namespace)
        state.namespace = {}  # drop the reference only, as Sphinx does; threads may still use it
        return result

    def cleanup_all(self) -> list[RunResult]:
        return [r for key in list(self.states) if (r := self.cleanup(*key)) is not None]

    def _setup_cleanup(self, group: str, what: str, namespace: dict[str, Any]) -> RunResult:
        """``run_setup_cleanup`` of test_group: one DocTest of all the blocks, in exec mode."""
        testcodes: list[TestCode] = getattr(self.groups[group], what)
        examples = [doctest.Example(code.code, "", lineno=code.lineno) for code in testcodes]
        if not examples:
            return RunResult()
        runner = self.setup_runner if what == "setup" else self.cleanup_runner
        # simulate a doctest with the code
        sim_doctest = doctest.DocTest(
            examples, {}, f"{group} ({what} code)", testcodes[0].filename, 0, None
        )
        sim_doctest.globs = namespace
        places = [(block_of(code).location, 0) for code in testcodes]
        return _run(runner, self.builder, sim_doctest, "exec", places)


def make_doctest(
    group: str, code: Test, namespace: dict[str, Any]
) -> tuple[doctest.DocTest, str, list[Place]] | None:
    """The DocTest ``DocTestBuilder.test_group`` builds for one test, with its compile mode."""
    first = block_of(code[0])
    if len(code) == 1:
        # ordinary doctests (code/output interleaved)
        try:
            test = parser.get_doctest(first.code, {}, group, first.filename, first.lineno)
        except Exception:  # noqa: BLE001 - Sphinx warns "ignoring invalid doctest code"
            return None
        if not test.examples:
            return None
        for example in test.examples:
            # apply directive's comparison options
            new_opt = first.options.copy()
            new_opt.update(example.options)
            example.options = new_opt
        mode = "single"  # as for ordinary doctests
        places = [(first.location, example.lineno) for example in test.examples]
    else:
        # testcode and output separate
        output = code[1].code if code[1] else ""
        options = code[1].options if code[1] else {}
        # disable <BLANKLINE> processing as it is not needed
        options[doctest.DONT_ACCEPT_BLANKLINE] = True
        # find out if we're testing an exception
        m = parser._EXCEPTION_RE.match(output)  # type: ignore[attr-defined]
        exc_msg = m.group("msg") if m else None
        example = doctest.Example(
            first.code, output, exc_msg=exc_msg, lineno=first.lineno, options=options
        )
        test = doctest.DocTest([example], {}, group, first.filename, first.lineno, None)
        mode = "exec"  # multiple statements again
        places = [(first.location, 0)]
    # DocTest.__init__ copies the globs namespace, which we don't want
    test.globs = namespace
    return test, mode, places


__all__ = [
    "DocumentRun",
    "ExampleFailure",
    "RunResult",
    "SetupFailed",
    "install_interrupt_handler",
    "make_doctest",
    "user_interrupted",
]
