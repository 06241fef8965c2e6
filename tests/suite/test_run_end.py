"""The end of a run: its verdict and JSON report, whatever an example left running or
another plugin fails to write, and a worker that died told on the example it ran.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance.reports.json_report import read_report
from conformance.reports.report_path import REPORT_NOT_WRITTEN
from tests.suite.test_executor_boundary import fault_alone
from tests.suite.test_isolation import outcomes
from tests.suite.test_outside_world import finish, suite, with_fault

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.mark.parametrize("workers", ["0", "1"])
def test_a_junit_folder_replaced_by_a_file_loses_neither_verdict_nor_report(
    workers: str, tmp_path: Path
) -> None:
    junit = tmp_path / "junit"
    junit.mkdir()
    code = (
        f"import pathlib, shutil\nshutil.rmtree({str(junit)!r})\n"
        f"pathlib.Path({str(junit)!r}).write_text('')"
    )
    with suite(
        with_fault(tmp_path, code), "--junitxml", str(junit / "out.xml"), "-n", workers
    ) as process:
        output = finish(process)
    assert process.returncode == REPORT_NOT_WRITTEN, output
    assert "Traceback" not in output
    assert "MUST: 4/4 passed" in output.splitlines()
    assert "a file of the run was NOT written" in output
    assert read_report(tmp_path / "report.json").complete


@pytest.mark.parametrize("workers", ["0", "1"])
def test_a_thread_an_example_left_cannot_rewrite_the_report(workers: str, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    code = (
        "import threading, time\n"
        "def scribble():\n"
        "    while True:\n"
        "        try:\n"
        f"            with open({str(report)!r}) as found:\n"
        "                written = found.read(1) == '{'\n"
        "            if written:\n"
        f"                open({str(report)!r}, 'w').write('not a report')\n"
        "        except OSError:\n"
        "            pass\n"
        "        time.sleep(0.0005)\n"
        "threading.Thread(target=scribble, daemon=True).start()"
    )
    with suite(with_fault(tmp_path, code), "-n", workers) as process:
        output = finish(process)
    assert process.returncode == 0, output
    assert json.loads(report.read_text())["complete"] is True


def test_a_worker_killed_by_its_example_is_reported_on_that_example(tmp_path: Path) -> None:
    code = "import os, signal, time\nos.kill(os.getppid(), signal.SIGKILL)\ntime.sleep(30)"
    junit = tmp_path / "junit.xml"
    with suite(with_fault(tmp_path, code), "-n", "1", "--junitxml", str(junit)) as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "crash", output)
    message = read_report(tmp_path / "report.json").by_id()["FAULT-1"].message
    assert "the pytest worker running this example (gw0) ended while it ran" in message
    assert "no example collected" not in output
    assert "the run fails: failed MUST requirements: FAULT-1" in output
    case = junit.read_text().partition('name="FAULT-1[1]"')[2].partition("</testcase>")[0]
    assert '<property name="failure_kind" value="crash" />' in case
    assert '<property name="requirement" value="FAULT-1" />' in case
    assert outcomes(read_report(tmp_path / "report.json"))["OK-AFTER-2"] == ("passed", "")
