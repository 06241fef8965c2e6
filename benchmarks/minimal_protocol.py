"""A bound, not a runner: the least per-item work of any one-pytest-item-per-test runner.

Loaded by doctest_vs_sphinx.py as ``-p benchmarks.minimal_protocol`` beside the engine's
plugin. For the engine's items it replaces pytest's per-item protocol with what no
runner that gives each test its own item can skip: the start and finish events, the
three phases (pytest's setup state, the engine's group setup, the test, the engine's
group cleanup), and a report made and logged for each phase (what the terminal, JUnit,
xdist and the conformance reporter read). It leaves out what pytest's own per-phase
hooks add: log and output capture, skip and xfail marks, the unraisable- and
thread-exception checks, ``PYTEST_CURRENT_TEST``. Its time is therefore below what
any correct protocol can reach on this project; it is not for real use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import pytest

from conformance.sphinx_doctest.evaluators import CleanupFailed, cleanup_after, prepare
from conformance.sphinx_doctest.plugin import sphinx_example


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    example = sphinx_example(item)
    if example is None:
        return None  # pytest's protocol for everything else
    setup_state = item.session._setupstate  # pytest's own per-session state

    def setup() -> None:
        setup_state.setup(item)
        prepare(example, dict(getattr(item, "funcargs", {})))

    def teardown() -> None:
        failed = cleanup_after(example, sphinx_example(nextitem))
        setup_state.teardown_exact(nextitem)
        if failed:
            raise CleanupFailed(failed)

    ihook = item.ihook

    def phase(
        when: Literal["setup", "call", "teardown"], run: Callable[[], None]
    ) -> pytest.TestReport:
        call = pytest.CallInfo.from_call(run, when=when)
        report: pytest.TestReport = ihook.pytest_runtest_makereport(item=item, call=call)
        ihook.pytest_runtest_logreport(report=report)
        return report

    ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    if phase("setup", setup).passed:
        phase("call", item.runtest)
    phase("teardown", teardown)
    ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True
