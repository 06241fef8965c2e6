"""What examples print or raise is bounded, and never reads as the harness's own lines.

The harness holds the head and tail of what an executor wrote, whatever an
example (or a process it started) printed; the executor cuts an exception's
text before sending it; a failure's text is capped in the terminal and in
JUnit; below its headline every line of a failure is indented, so that an
example printing ``MUST: 4/4 passed`` cannot pass for the verdict. Each run
is ``forkwait-conformance`` on the small spec of test_isolation.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.reports.json_report import read_report
from tests.suite.test_executor_boundary import fault_alone
from tests.suite.test_isolation import ROOT, TIMEOUT, write_spec
from tests.suite.test_outside_world import BOUND, finish, suite, with_fault

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

#: runs ``forkwait-conformance`` as its child and prints the largest RSS of the run's processes
PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def test_a_child_process_flooding_its_output_leaves_the_harness_memory_bounded(
    tmp_path: Path,
) -> None:
    mark = tmp_path / "flooded"
    flood = (
        "import sys\nfor _ in range(300): sys.stdout.write('x' * 1000000)\n"
        f"sys.stdout.flush()\nopen({str(mark)!r}, 'w').close()"
    )
    code = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {flood!r}])"
    folder = with_fault(tmp_path, code)
    done = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-m", "conformance.cli",
         "--spec-root", str(folder), "--example-timeout", "120",
         "--report", str(folder / "report.json")],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )  # fmt: skip
    assert mark.exists(), "the flood did not run"
    peak = int(done.stdout.split()[-1])
    assert peak < 250 * 2**20, f"a process of the run peaked at {peak / 2**20:.0f} MiB"
    report = read_report(folder / "report.json")
    assert report.complete
    assert report.by_id()["OK-AFTER-2"].outcome == "passed"


def test_an_exception_text_longer_than_a_frame_fails_its_example_as_an_exception(
    tmp_path: Path,
) -> None:
    code = "raise ValueError('x' * (70 * 2**20) + ' the end')"
    with suite(with_fault(tmp_path, code), "--example-timeout", "120") as process:
        output = finish(process, 240)
    assert process.returncode == 1, output[-3000:]
    fault_alone(tmp_path, "exception", output[-3000:])
    assert "more characters dropped" in output
    assert "the end" in output  # the tail is kept
    assert len(output) < 256 * 1024


def test_failure_text_is_capped_in_the_terminal_and_in_junit(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    code = "raise ValueError('y' * (20 * 2**20))"
    with suite(with_fault(tmp_path, code), "--junitxml", str(junit)) as process:
        output = finish(process, 240)
    assert process.returncode == 1, output[-3000:]
    assert len(output) < 256 * 1024
    assert junit.stat().st_size < 256 * 1024
    assert "more characters dropped" in junit.read_text()


def test_lines_an_example_prints_never_read_as_the_verdict(tmp_path: Path) -> None:
    fake = "MUST: 4/4 passed\\nverdict: reference conforms: core 4/4 MUST"
    code = (
        f"import os, subprocess, sys\nprint('{fake}')\nos.write(2, b'{fake}\\n')\n"
        f"subprocess.run([sys.executable, '-c', \"print('{fake}')\"])\n"
        f"raise ValueError('a message\\n{fake}')"
    )
    with suite(with_fault(tmp_path, code), "-rA") as process:
        output = finish(process)
    assert process.returncode == 1, output
    lines = output.splitlines()
    assert [line for line in lines if line.startswith("MUST:")] == ["MUST: 3/4 passed, 1 failed"]
    assert [line for line in lines if line.startswith("verdict:")] == [
        "verdict: reference does not conform: core 3/4 MUST"
    ], output
    assert "  MUST: 4/4 passed" in output  # shown, indented under the failure


def test_a_timeout_message_is_the_harness_s_in_a_short_run(tmp_path: Path) -> None:
    """The message a timeout shows names the run's own deadline (TIMEOUT seconds)."""
    with suite(write_spec(tmp_path, "hang")) as process:
        output = finish(process, BOUND)
    message = read_report(tmp_path / "report.json").by_id()["FAULT-1"].message
    assert f"timed out after {TIMEOUT} s" in message, output
    assert "conformance/executor/" not in message  # the deadline's own frames are cut
