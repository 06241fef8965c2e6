"""One fault costs one example: crashes, hangs and stray interrupts, under pytest-xdist.

Each run goes through ``forkwait-conformance`` on a small spec of four
requirements in one group, where one example misbehaves. The other three must
keep their verdicts - including the ones after the fault, which run in a fresh
worker that rebuilds the group's namespace (example 3 needs what example 1
defined).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.reports import drafts, triage
from conformance.reports.json_report import RunReport, read_report
from tests.paths import REPO

ROOT = REPO
TIMEOUT = "2"

HEADER = """Faults
======

.. requirement:: OK-BEFORE-1
   :profile: core
   :level: MUST

   Runs before the fault: MUST pass.

.. testcode::

   base = 40
   print(base)

.. testoutput::

   40

.. requirement:: FAULT-1
   :profile: core
   :level: MUST

   The misbehaving example.

.. testcode::

{fault}

.. requirement:: OK-AFTER-1
   :profile: core
   :level: MUST

   Needs example 1's namespace, and a process the fault did not poison: MUST pass.

.. testcode::

   import json
   print(base + 2, "poisoned" if hasattr(json, "_poisoned") else "clean")

.. testoutput::

   42 clean

.. requirement:: OK-AFTER-2
   :profile: core
   :level: MUST

   The run goes on to the end: MUST pass.

.. testcode::

   print("last")

.. testoutput::

   last
"""

FAULTS = {
    "crash": "import os\nos._exit(70)",
    "exit-0": "import os\nos._exit(0)",
    "exit-3": "import os\nos._exit(3)",
    # Python can interrupt this hang; it leaves a stuck thread and a poisoned module behind
    "hang": (
        "import json, threading, time\njson._poisoned = True\n"
        "threading.Thread(target=time.sleep, args=(3600,)).start()\ntime.sleep(3600)"
    ),
    # in C, with every signal blocked and the GIL held: only the watchdog ends it
    "wedge": (
        "import ctypes, signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())\n"
        "ctypes.PyDLL(None).pause()"
    ),
    # the deadline's exception is raised into the example, which swallows it and goes on
    "swallowed-timeout": "import time\ntry:\n    time.sleep(3600)\nexcept BaseException:\n    pass",
    # ... or keeps it as the outcome of a task run in its frame (a plain fork) and never waited
    "unwaited-timeout": "import time\nfw.fork(time.sleep, 3600)",
    "keyboard-interrupt": "raise KeyboardInterrupt",
    "system-exit": "import sys\nsys.exit(3)",
}


def write_spec(folder: Path, fault: str) -> Path:
    body = "\n".join(f"   {line}" for line in FAULTS[fault].splitlines())
    (folder / "faults.rst").write_text(HEADER.format(fault=body), encoding="utf-8")
    return folder


def run_suite(
    folder: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], RunReport]:
    report = folder / "report.json"
    result = subprocess.run(
        [
            sys.executable, "-m", "conformance.cli", "--spec-root", str(folder),
            "--example-timeout", TIMEOUT, "--report", str(report), *args,
        ],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT, env=env,
    )  # fmt: skip
    return result, read_report(report)


def outcomes(report: RunReport) -> dict[str, tuple[str, str]]:
    """Requirement -> (outcome, failure kind of its worst example)."""
    return {
        r.id: (r.outcome, max((e.kind for e in r.results), default="")) for r in report.requirements
    }


def others_pass(report: RunReport) -> bool:
    return all(
        outcomes(report)[i][0] == "passed" for i in ("OK-BEFORE-1", "OK-AFTER-1", "OK-AFTER-2")
    )


@pytest.mark.parametrize(
    ("fault", "kind", "said"),
    [
        ("crash", "crash", "the example ended the executor process with os._exit(70)"),
        ("exit-0", "crash", "the example ended the executor process with os._exit(0)"),
        ("hang", "timeout", "timed out after 2 s (--example-timeout); it was at:"),
        ("wedge", "hang", "hung past --example-timeout (2 s) where Python could not interrupt it"),
        ("swallowed-timeout", "timeout", "the timeout raised into it never surfaced"),
        ("unwaited-timeout", "timeout", "the timeout raised into it never surfaced"),
        ("keyboard-interrupt", "exception", "raised KeyboardInterrupt (this was not a Ctrl-C)"),
        ("system-exit", "exception", "SystemExit: 3"),
    ],
)
def test_a_fault_fails_its_own_example_only(
    fault: str, kind: str, said: str, tmp_path: Path
) -> None:
    result, report = run_suite(write_spec(tmp_path, fault))
    assert result.returncode == 1, result.stdout + result.stderr
    assert outcomes(report)["FAULT-1"] == ("failed", kind), result.stdout
    assert others_pass(report), result.stdout
    assert said in report.by_id()["FAULT-1"].message
    assert report.complete
    assert not report.interrupted


@pytest.mark.parametrize("status", [0, 3])
def test_an_exit_is_named_by_its_status_in_its_failure_cause_triage_and_draft(
    status: int, tmp_path: Path
) -> None:
    """``os._exit(0)`` was said to have broken the executor's channel (os._exit(3) not)."""
    result, report = run_suite(write_spec(tmp_path, f"exit-{status}"))
    said = f"the example ended the executor process with os._exit({status})"
    (record,) = report.by_id()["FAULT-1"].results
    assert (record.outcome, record.kind) == ("failed", "crash"), result.stdout
    assert said in record.message
    assert record.cause.startswith(said)
    assert "channel" not in record.cause + record.message
    assert f"crash: {said}" in "\n".join(triage.render(report))
    (draft,) = drafts.drafts(report)[drafts.SKIPS]
    assert draft.reason() == f"{drafts.TO_CONFIRM}{record.cause}"
    assert f"FAILED faults.rst::FAULT-1[1] - {said[:20]}" in result.stdout
    assert others_pass(report), result.stdout


def test_a_timeout_says_its_deadline_and_where_the_example_was_not_the_harness(
    tmp_path: Path,
) -> None:
    result, report = run_suite(write_spec(tmp_path, "hang"))
    (record,) = report.by_id()["FAULT-1"].results
    assert record.kind == "timeout", result.stdout
    assert record.cause == "timed out after 2 s; at faults.rst, line 30: time.sleep(3600)"
    assert "testcode at faults.rst, line 27 timed out after 2 s (--example-timeout)" in (
        record.message
    )
    assert "conformance/executor" not in record.message  # the deadline's own frames
    assert "DeadlineExceeded: timed out after 2 s (--example-timeout)" in record.message


def test_a_run_leaves_nothing_in_the_temp_dir(tmp_path: Path) -> None:
    """The controller's folder of worker dumps went unremoved: one more per run."""
    temp = tmp_path / "temp"
    temp.mkdir()
    result, report = run_suite(
        write_spec(tmp_path, "crash"), env={**os.environ, "TMPDIR": str(temp)}
    )
    assert outcomes(report)["FAULT-1"] == ("failed", "crash"), result.stdout
    left = [path.name for path in temp.iterdir() if not path.name.startswith("pytest-of-")]
    assert left == []  # (pytest-of-*: xdist's basetemp, which pytest itself prunes)


def test_a_crash_is_never_absorbed_by_an_expected_failure(tmp_path: Path) -> None:
    folder = write_spec(tmp_path, "crash")
    xfails = folder / "xfails.toml"
    xfails.write_text('["FAULT-1"]\nreason = "listed, but a crash is not a failure of its test"\n')
    result, report = run_suite(folder, "--xfails-file", str(xfails))
    assert result.returncode == 1, result.stdout
    assert outcomes(report)["FAULT-1"] == ("failed", "crash")


def test_a_known_hang_in_the_skips_file_is_not_run(tmp_path: Path) -> None:
    folder = write_spec(tmp_path, "wedge")
    skips = folder / "skips.toml"
    skips.write_text('["FAULT-1"]\nreason = "deadlocks with the GIL held"\n')
    started = time.monotonic()
    result, report = run_suite(folder, "--skips-file", str(skips))
    assert result.returncode == 0, result.stdout
    assert outcomes(report)["FAULT-1"] == ("skipped", "")
    assert "not run (deadlocks with the GIL held)" in report.by_id()["FAULT-1"].message
    assert others_pass(report)
    assert time.monotonic() - started < 30  # no example deadline was waited out


def test_ctrl_c_stops_the_run_and_the_report_says_what_did_not_run(tmp_path: Path) -> None:
    folder = write_spec(tmp_path, "hang")
    started = folder / "started"
    spec = folder / "faults.rst"
    spec.write_text(
        spec.read_text().replace(
            "   import json, threading, time\n",
            f"   import json, threading, time\n   open({str(started)!r}, 'w').close()\n",
        )
    )
    report = folder / "report.json"
    process = subprocess.Popen(
        [
            sys.executable, "-m", "conformance.cli", "--spec-root", str(folder),
            "--example-timeout", "60", "--report", str(report),
        ],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not started.exists():
            assert time.monotonic() < deadline, "the hanging example never started"
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == pytest.ExitCode.INTERRUPTED, output
    data = json.loads(report.read_text())
    assert data["interrupted"] is True
    assert data["complete"] is False
    runs = {r["id"]: r["outcome"] for r in data["requirements"]}
    assert runs["OK-BEFORE-1"] == "passed"
    assert runs["OK-AFTER-1"] == runs["OK-AFTER-2"] == "not-run"


def test_junit_counts_a_crash_as_a_failure_of_its_requirement(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET  # noqa: PLC0415 - our own file

    folder = write_spec(tmp_path, "crash")
    junit = folder / "junit.xml"
    result, _ = run_suite(folder, "--junitxml", str(junit))
    assert result.returncode == 1
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("failures"), suite.get("errors")) == ("1", "0")
    cases = {str(case.get("name")): case for case in suite.iter("testcase")}
    assert sorted(cases) == ["FAULT-1[1]", "OK-AFTER-1[1]", "OK-AFTER-2[1]", "OK-BEFORE-1[1]"]
    crashed = cases["FAULT-1[1]"]
    assert crashed.find("failure") is not None
    properties = {p.get("name"): p.get("value") for p in crashed.iter("property")}
    assert properties["requirement"] == "FAULT-1"
    assert properties["profile"] == "core"
    assert properties["level"] == "MUST"
    assert properties["failure_kind"] == "crash"
