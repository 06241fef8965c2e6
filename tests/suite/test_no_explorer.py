"""An adapter without an explorer: the rules that check one are skipped, saying why.

Their examples are in the group ``explorer``, and their probes need the explorer as
much (``selected().explorer``): all of them are skipped, none fails on ``None``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conformance.reports.json_report import read_report
from tests.paths import checkout_on_path
from tests.suite.test_isolation import ROOT

ADAPTER = "tests.suite.adapters.no_explorer:adapter"
#: the rules whose examples check the adapter's explorer
EXPLORER_RULES = (
    "DET-SCHEDULE-REPLAY-1",
    "EXPLORER-NAMES-1",
    "EXPLORER-USE-1",
    "EXPLORER-FINISHES-1",
)


def test_the_rules_that_check_an_explorer_are_skipped_with_the_reason(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--impl", ADAPTER,
         "-k", " or ".join(EXPLORER_RULES), "--report", str(report)],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
        env=checkout_on_path(),
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    records = read_report(report).by_id()
    for rule in EXPLORER_RULES:
        results = records[rule].results
        assert len(results) > 1, rule  # its examples and its probes
        assert {r.outcome for r in results} == {"skipped"}, (rule, output)
        assert {r.message for r in results} == {
            f"{rule}: implementation 'no-explorer' gives no explorer"
        }
