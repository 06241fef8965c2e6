"""An executor starts light and early: running an example needs the adapter, the
groups and Sphinx's compile semantics, not pytest's machinery nor a Sphinx
application; and its start-up runs while the harness reads the spec.

What it imported is asked from inside a real executor (an example of a small
spec run by the CLI), so every import its start-up makes counts, whoever makes it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.catalog.files import spec_conf_dir
from conformance.executor.handle import ExecutorHandle, ExecutorUnavailable, Launch
from conformance.reports.json_report import read_report
from tests.suite.test_isolation import ROOT

#: what an executor must not import before its first example
HEAVY = ("sphinx.application", "_pytest.config", "pytest", "sybil", "docutils.core")

SPEC = f"""Start-up
========

.. requirement:: LIGHT-START-1
   :profile: core
   :level: MUST

   The executor imported nothing heavy before this example.

.. testcode::

   import sys
   print(sorted(name for name in {HEAVY!r} if name in sys.modules))

.. testoutput::

   []
"""


def test_an_executor_imports_neither_pytest_machinery_nor_a_sphinx_application(
    tmp_path: Path,
) -> None:
    (tmp_path / "start.rst").write_text(SPEC, encoding="utf-8")
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--impl", "reference",
         "--spec-root", str(tmp_path), "--report", str(report)],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    (requirement,) = read_report(report).requirements
    assert (requirement.id, requirement.outcome) == ("LIGHT-START-1", "passed"), output


def test_an_executor_begun_early_is_the_one_that_answers_the_next_request() -> None:
    handle = ExecutorHandle(Launch(str(spec_conf_dir()), "reference", 60))
    try:
        handle.begin()
        assert handle.starting
        assert handle.process is not None
        begun = handle.process.pid
        answer = handle.request({"op": "describe", "count": 0, "replay": None})
        assert answer["name"] == "reference"
        assert handle.process is not None
        assert handle.process.pid == begun  # waited for, not started a second time
        assert not handle.starting
        assert handle.code  # the implementation's files, from its ready answer
    finally:
        handle.stop()


def test_an_executor_begun_early_that_cannot_load_fails_the_next_request() -> None:
    handle = ExecutorHandle(Launch(str(spec_conf_dir()), "no_such_module_anywhere", 60))
    try:
        handle.begin()
        with pytest.raises(ExecutorUnavailable, match="no_such_module_anywhere"):
            handle.request({"op": "describe", "count": 0, "replay": None})
        with pytest.raises(ExecutorUnavailable):  # once failed, it is not started again
            handle.request({"op": "describe", "count": 0, "replay": None})
        assert handle.process is None
    finally:
        handle.stop()
