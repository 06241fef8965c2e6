"""Run one document's groups: namespaces, setup, tests and cleanup, with doctest's checker.

A ``testcode`` is run as a single ``doctest.Example`` whose source execs the
block compiled under the ``.rst`` file name at its true line, so doctest does
stdout capture, option flags, expected exceptions and diffs, while tracebacks
point into the spec document (Sphinx's own builder misreports these lines).
"""

from __future__ import annotations

import doctest
import traceback
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from conformance.blocks import Block
from conformance.groups import Group, Test

#: ``doctest_default_flags`` of Sphinx: the flags every example starts with.
DEFAULT_FLAGS = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1

_CODE_NAME = "__forkwait_block__"
_EXEC_SOURCE = f"exec({_CODE_NAME})\n"
_doctest_parser = doctest.DocTestParser()


def compile_block(block: Block) -> CodeType:
    """Compile a block so that its tracebacks name the .rst file and true line."""
    padded = "\n" * (block.source_line - 1) + block.source
    return compile(padded, block.path, "exec", dont_inherit=True)


def new_namespace(global_setup: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__forkwait_spec__"}
    if global_setup:
        exec(compile(global_setup, "<doctest_global_setup>", "exec"), namespace)  # noqa: S102
    return namespace


def _format_exception(exc: BaseException) -> str:
    """The traceback from the spec block inward: harness frames are noise."""
    frames = traceback.extract_tb(exc.__traceback__)
    keep = next((i for i, f in enumerate(frames) if f.filename.endswith(".rst")), 0)
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(frames[keep:])
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines)


def exec_block(block: Block, namespace: dict[str, Any]) -> str | None:
    """Run a setup or cleanup block; a failure report, or None."""
    try:
        exec(compile_block(block), namespace)  # noqa: S102 - running the spec is the point
    except Exception as exc:  # noqa: BLE001 - reported, not propagated
        return f"{block.kind} at {block.path}, line {block.source_line} raised:\n" + (
            _format_exception(exc)
        )
    return None


def run_test(test: Test, namespace: dict[str, Any], group: str) -> str | None:
    """Run a test in the group's namespace; doctest's failure report, or None."""
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=DEFAULT_FLAGS, verbose=False)
    doctest_test = _as_doctest(test, namespace, group)
    if not doctest_test.examples:
        return None
    if test.code.kind == "testcode":
        namespace[_CODE_NAME] = compile_block(test.code)
    try:
        runner.run(doctest_test, out=report.append, clear_globs=False)
    finally:
        namespace.pop(_CODE_NAME, None)
        doctest_test.globs = {}
    if runner.failures:
        return "".join(report).strip("*\n")
    return None


def _as_doctest(test: Test, namespace: dict[str, Any], group: str) -> doctest.DocTest:
    code = test.code
    if code.kind == "doctest":
        parsed = _doctest_parser.get_doctest(
            code.source, namespace, group, code.path, code.source_line - 1
        )
        for example in parsed.examples:
            example.options = {**code.options, **example.options}
        parsed.globs = namespace
        return parsed
    output = test.output
    want = output.source if output is not None else ""
    options = dict(output.options) if output is not None else {}
    options[doctest.DONT_ACCEPT_BLANKLINE] = True
    match = _doctest_parser._EXCEPTION_RE.match(want)  # type: ignore[attr-defined]
    example = doctest.Example(
        _EXEC_SOURCE,
        want,
        exc_msg=match.group("msg") if match else None,
        lineno=0,
        options=options,
    )
    # lineno = source_line - 1 makes doctest report "line <source_line>"
    result = doctest.DocTest([example], namespace, group, code.path, code.source_line - 1, None)
    result.globs = namespace
    return result


@dataclass
class GroupState:
    namespace: dict[str, Any]
    setup_failure: str | None
    cleaned_up: bool = False


#: (group name, variant): a variant (such as a schedule) runs in namespaces of its own
StateKey = tuple[str, str | None]


@dataclass
class DocumentRun:
    """Lazily sets up each group once, runs its tests, and cleans it up once.

    A *variant* (an explored schedule) gets fresh namespaces of its own, with
    the group's setup run again, so its run cannot see another's state.
    """

    groups: dict[str, Group]
    global_setup: str
    _states: dict[StateKey, GroupState] = field(default_factory=dict)

    def run(self, group_name: str, test: Test, variant: str | None = None) -> str | None:
        state = self._state((group_name, variant))
        if state.setup_failure is not None:
            return f"setup of group {group_name!r} failed, so this test could not run:\n" + (
                state.setup_failure
            )
        return run_test(test, state.namespace, group_name)

    def cleanup(self, group_name: str, variant: str | None = None) -> str | None:
        """Run the group's cleanup if it was set up and not yet cleaned."""
        state = self._states.get((group_name, variant))
        if state is None or state.cleaned_up:
            return None
        state.cleaned_up = True
        failures = [
            failure
            for block in self.groups[group_name].cleanup
            if (failure := exec_block(block, state.namespace)) is not None
        ]
        state.namespace.clear()
        return "\n".join(failures) or None

    def cleanup_all(self) -> list[str]:
        return [f for key in list(self._states) if (f := self.cleanup(*key)) is not None]

    def _state(self, key: StateKey) -> GroupState:
        state = self._states.get(key)
        if state is None:
            namespace: dict[str, Any] = {}
            failure: str | None = None
            try:
                namespace = new_namespace(self.global_setup)
            except Exception as exc:  # noqa: BLE001
                failure = "doctest_global_setup raised:\n" + _format_exception(exc)
            for block in self.groups[key[0]].setup:
                if failure is None:
                    failure = exec_block(block, namespace)
            state = self._states[key] = GroupState(namespace, failure)
        return state
