"""Run a document's groups as ``DocTestBuilder.test_group`` does, one test at a time.

Sphinx runs a whole group in one call; pytest needs one call per test. This
module splits ``test_group`` into its three steps - setup, one test, cleanup -
keeping everything Sphinx's semantics depend on: the same ``doctest.DocTest``
and ``Example`` objects (names, filenames, line numbers, option flags), one
output spoof shared by the document's three runners, a fresh namespace per
group, Sphinx's compile modes (compiling.py), and a group whose setup failed
running neither tests nor cleanup.

What Sphinx cannot do is added: a group's namespace can be rebuilt. When a
test runs in a process that did not run the ones before it (``-k``, a
replaced xdist worker), the group's setup runs and the earlier tests are
replayed silently, as Sphinx would have run them.
"""

from __future__ import annotations

import doctest
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from sphinx.ext.doctest import TestCode, TestGroup, parser

from conformance.sphinx_doctest.compiling import Compiler, Place
from conformance.sphinx_doctest.model import Test, block_of
from conformance.sphinx_doctest.runners import DoctestResult, QuietRunner, Runner, run_doctest


class SetupFailed(Exception):
    """A group's setup failed: Sphinx then runs neither its tests nor its cleanup."""

    def __init__(self, group: str, result: DoctestResult, first: bool) -> None:
        super().__init__(group)
        self.group = group
        self.result = result
        #: False when an earlier test of the group already reported this failure
        self.first = first


@dataclass
class GroupState:
    namespace: dict[str, Any]
    setup: DoctestResult
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
        compiler: Compiler,
        optionflags: int,
        replayable: Callable[[str, int], bool] = lambda group, index: True,
    ) -> None:
        self.groups = groups
        #: the builder, whose compile mode is switched per test as Sphinx's is
        self.compiler = compiler
        #: the project's doctest_default_flags
        self.optionflags = optionflags
        #: (group, test index) -> may that test be replayed to rebuild a namespace?
        self.replayable = replayable
        self.setup_runner = Runner(optionflags)
        self.test_runner = Runner(optionflags)
        self.cleanup_runner = Runner(optionflags)
        # as in test_doc: the three runners share one output spoof
        shared: TextIO = self.setup_runner._fakeout  # type: ignore[attr-defined]
        self.test_runner._fakeout = shared  # type: ignore[attr-defined]
        self.cleanup_runner._fakeout = shared  # type: ignore[attr-defined]
        self.states: dict[StateKey, GroupState] = {}
        #: (test index, result) of each replay of the last prepare() that failed
        self.replay_failures: list[tuple[int, DoctestResult]] = []

    def prepare(self, group: str, index: int, variant: str | None = None) -> dict[str, Any]:
        """Make the group's namespace what Sphinx's would be just before test ``index``.

        Returns the namespace (the test runs in it).

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
        self.replay_failures = []
        for earlier in range(state.next_test, index):
            if self.replayable(group, earlier):
                made = make_doctest(group, self.groups[group].tests[earlier], state.namespace)
                if made is not None:
                    replay = run_doctest(QuietRunner(self.optionflags), self.compiler, *made)
                    if replay.failed:
                        self.replay_failures.append((earlier, replay))
        state.next_test = index
        return state.namespace

    def run_test(self, group: str, index: int, variant: str | None = None) -> DoctestResult | None:
        """Run test ``index`` of a prepared group; None where Sphinx ignores the block."""
        state = self.states[(group, variant)]
        state.next_test = index + 1
        made = make_doctest(group, self.groups[group].tests[index], state.namespace)
        if made is None:
            return None
        return run_doctest(self.test_runner, self.compiler, *made)

    def cleanup(self, group: str, variant: str | None = None) -> DoctestResult | None:
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

    def cleanup_all(self) -> list[DoctestResult]:
        return [r for key in list(self.states) if (r := self.cleanup(*key)) is not None]

    def _setup_cleanup(self, group: str, what: str, namespace: dict[str, Any]) -> DoctestResult:
        """``run_setup_cleanup`` of test_group: one DocTest of all the blocks, in exec mode."""
        testcodes: list[TestCode] = getattr(self.groups[group], what)
        examples = [doctest.Example(code.code, "", lineno=code.lineno) for code in testcodes]
        if not examples:
            return DoctestResult()
        runner = self.setup_runner if what == "setup" else self.cleanup_runner
        # simulate a doctest with the code
        sim_doctest = doctest.DocTest(
            examples, {}, f"{group} ({what} code)", testcodes[0].filename, 0, None
        )
        sim_doctest.globs = namespace
        places = [(block_of(code).location, 0) for code in testcodes]
        return run_doctest(runner, self.compiler, sim_doctest, "exec", places)


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


__all__ = ["DocumentRun", "SetupFailed", "make_doctest"]
