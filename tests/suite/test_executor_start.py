"""An executor starts light: running an example needs the adapter, the groups and
Sphinx's compile semantics, not pytest's machinery nor a Sphinx application.

Asked from inside a real executor (an example of a small spec run by the CLI),
so every import its start-up makes counts, whoever makes it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
