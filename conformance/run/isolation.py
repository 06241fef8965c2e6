"""Per-example deadlines and faults, enforced from outside the process that runs examples.

Every spec example runs in an executor process (conformance/executor/), never
in pytest's. This plugin arms the executor's deadline around each example
(from before its setup, as pytest-timeout measured it), labels each failure's
kind, and tells a crash or a hang of the executor as a failure of the example
that caused it: the signal or exit status, the example's source at its true
lines, and the stacks faulthandler dumped. A hang or a crash is always a
failure: no expected-failure entry absorbs it (known ones belong in the skips
list, which does not run them). An example that hung, timed out or crashed is
never replayed to rebuild a namespace in the fresh executor that follows.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

import pytest

from conformance.executor.handle import ExecutorFault, ExecutorHandle, ExecutorUnavailable
from conformance.run.failure_kinds import failure_kind
from conformance.run.spec_items import SpecItem
from conformance.sphinx_doctest.capped import cap_text
from conformance.sphinx_doctest.failures import describe_result, numbered_source
from conformance.sphinx_doctest.runners import ExampleFailure

_PHASES = {
    "setup": "while its group's namespace was made (its setup, or a replay of earlier tests)",
    "call": "",
    "teardown": "while its group's cleanup ran",
}


class Isolation:
    """Registered by the plugin in every pytest process that runs spec examples."""

    def __init__(self, config: pytest.Config, handle: ExecutorHandle) -> None:
        self.timeout: float = config.getoption("example_timeout") or 0.0
        self.handle = handle

    def pytest_unconfigure(self) -> None:
        """End the executor and everything it started; remove its files."""
        self.handle.stop()

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Iterator[None]:
        if not isinstance(item, SpecItem):
            return (yield)
        self.handle.arm(self.timeout)
        try:
            return (yield)
        finally:
            self.handle.disarm()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """Label the failure's kind; a fault's story; what the executor printed."""
        kind = failure_kind(call)
        report: pytest.TestReport = yield
        if not isinstance(item, SpecItem):
            return report
        if kind:
            report.user_properties.append(("failure_kind", kind))
        if kind in ("timeout", "hang", "crash"):
            item.sphinx.replayable = False  # never again: not even to rebuild a namespace
        error = call.excinfo.value if call.excinfo else None
        if isinstance(error, ExecutorUnavailable) and not hasattr(item.config, "workerinput"):
            # every later example would fail alike (an xdist worker cannot stop the run:
            # each of its examples fails with this error instead, at once)
            pytest.exit(
                f"implementation {self.handle.launch.impl!r} loaded in the executor that "
                "described it, but a fresh executor (which imports it afresh) could not "
                "load it, so no example can run; check what differs there (environment "
                f"variables, working directory, sys.path). Its error:\n\n{error.traceback}",
                returncode=pytest.ExitCode.USAGE_ERROR,
            )
        if isinstance(error, ExecutorFault):
            report.longrepr = self.story(item, error, call.when)
        rebuild = item.sphinx.sphinx_document.run.replay_failures if call.when == "setup" else []
        if rebuild:
            text = "\n\n".join(
                f"replaying test {index + 1} of group {item.sphinx.spec.group!r} failed:\n"
                + describe_result(result, "code")
                for index, result in rebuild
            )
            item.user_properties.append(("rebuild_failed", "1"))
            report.sections.append(("namespace rebuilt in a fresh executor", text))
            item.stash[_REBUILD] = text
        if report.failed and _REBUILD in item.stash and isinstance(report.longrepr, str):
            report.longrepr += (
                "\n\nNote: this example ran in a fresh executor, whose rebuild of the "
                "group's namespace failed:\n" + item.stash[_REBUILD]
            )
        output = self.handle.output()
        if output:
            report.sections.append((f"Captured executor output {call.when}", output))
        report.sections = [(title, cap_text(text)) for title, text in report.sections]
        return report

    def story(self, item: SpecItem, fault: ExecutorFault, when: str) -> str:
        """What happened, to which example, where, and the stacks at that moment."""
        phase = _PHASES.get(when, "")
        lines = [f"{item.name}: {fault.summary}" + (f" ({phase})" if phase else "")]
        code = item.sphinx.spec.code
        if code is not None:
            failure = ExampleFailure(code.code, code.location, code.location.line, "crash", "")
            lines += [f"the example, at {code.location}:", *numbered_source(failure)]
        if fault.dump:
            lines += ["threads at that moment:", fault.dump]
        return item.headline() + "\n\n" + "\n".join(lines)


_REBUILD = pytest.StashKey[str]()

__all__ = ["Isolation"]
