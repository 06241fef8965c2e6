"""The process boundary: what an example or an adapter does to its process
reaches no pytest process - one regression per class of attack that used to break a run.

Each run is ``forkwait-conformance`` on the small spec of test_isolation.py (four
requirements in one group, FAULT-1 the misbehaving example), bounded in time.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.reports import drafts, triage
from conformance.reports.json_report import read_report
from tests.paths import FIXTURES
from tests.suite.test_isolation import ROOT, outcomes, write_spec
from tests.suite.test_outside_world import finish, suite, with_fault

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def gone(pids: list[int], within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def fault_alone(folder: Path, kind: str, output: str) -> None:
    """FAULT-1 failed with ``kind``; the three others passed; the report is whole."""
    report = read_report(folder / "report.json")
    assert outcomes(report) == {
        "OK-BEFORE-1": ("passed", ""),
        "FAULT-1": ("failed", kind),
        "OK-AFTER-1": ("passed", ""),
        "OK-AFTER-2": ("passed", ""),
    }, output
    assert report.complete
    assert not report.interrupted
    assert "INTERNALERROR" not in output


@pytest.mark.parametrize("workers", ["0", "1"])
def test_a_lone_surrogate_in_output_and_exception_fails_its_example_only(
    workers: str, tmp_path: Path
) -> None:
    code = 'import os\nname = os.fsdecode(b"caf\\xe9.txt")\nprint(name)\nraise ValueError(name)'
    with suite(with_fault(tmp_path, code), "-n", workers) as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "exception", output)
    assert "caf\\udce9.txt" in output  # shown escaped


def test_a_lowered_recursion_limit_reaches_no_harness(tmp_path: Path) -> None:
    with suite(with_fault(tmp_path, "import sys\nsys.setrecursionlimit(40)"), "-n", "1") as process:
        output = finish(process)
    assert process.returncode == 0, output
    assert all(
        outcome == ("passed", "")
        for outcome in outcomes(read_report(tmp_path / "report.json")).values()
    )


def test_json_patched_by_an_earlier_example_then_sigstop_still_fails_as_a_hang(
    tmp_path: Path,
) -> None:
    folder = with_fault(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)")
    spec = folder / "faults.rst"
    spec.write_text(
        spec.read_text().replace(
            "   base = 40\n",
            "   import json\n   json.dumps = json.loads = lambda *a, **k: '{}'\n   base = 40\n",
        )
    )
    started = time.monotonic()
    with suite(folder) as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(folder, "hang", output)
    assert time.monotonic() - started < 60


def test_bytes_written_into_the_channel_fail_the_example_not_the_run(tmp_path: Path) -> None:
    code = (
        "import os\nfor fd in range(3, 256):\n    try:\n        os.write(fd, b'\\x00garbage' * 8)\n"
        "    except OSError:\n        pass"
    )
    with suite(with_fault(tmp_path, code), "--example-timeout", "0") as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "crash", output)
    assert "broke the executor's channel" in output


def test_sigint_inside_the_executor_fails_its_example_and_the_run_goes_on(tmp_path: Path) -> None:
    code = "import os, signal, time\nos.kill(os.getpid(), signal.SIGINT)\ntime.sleep(1)"
    with suite(with_fault(tmp_path, code)) as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "exception", output)
    assert "this was not a Ctrl-C" in output


def test_a_fork_child_outliving_its_executor_does_not_hang_the_run(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    code = (
        "import os, time\nchild = os.fork()\n"
        "if child == 0:\n    time.sleep(3600)\n    os._exit(0)\n"
        f"open({str(pid_file)!r}, 'w').write(str(child))\nos._exit(5)"
    )
    started = time.monotonic()
    with suite(with_fault(tmp_path, code), "--example-timeout", "0") as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "crash", output)
    assert "the example ended the executor process with os._exit(5)" in output
    assert gone([int(pid_file.read_text())]), "the fork child outlived the run"
    assert time.monotonic() - started < 60


def test_a_test_that_fails_only_when_replayed_is_blamed_not_the_next(tmp_path: Path) -> None:
    mark = tmp_path / "ran-once"
    folder = write_spec(tmp_path, "crash")
    spec = folder / "faults.rst"
    spec.write_text(
        spec.read_text().replace(
            "   base = 40\n",
            f"   import os\n   assert not os.path.exists({str(mark)!r}), 'ran before'\n"
            f"   open({str(mark)!r}, 'w').close()\n   base = 40\n",
        )
    )
    with suite(folder) as process:
        output = finish(process)
    report = read_report(folder / "report.json")
    assert outcomes(report) == {
        "OK-BEFORE-1": ("passed", ""),
        "FAULT-1": ("failed", "crash"),
        # not run in a namespace without ``base``: its failure names the replayed test
        "OK-AFTER-1": ("failed", "setup"),
        "OK-AFTER-2": ("passed", ""),
    }, output
    after = report.by_id()["OK-AFTER-1"].message
    assert "test 1 of group 'default' passed when it ran, and failed when replayed" in after
    assert "AssertionError: ran before" in after
    assert "NameError" not in after
    # its cause (the short summary's, the triage's, the drafted reason's) names the
    # replayed test, where it is, and what it raised: not ``RebuildFailed: default``
    (record,) = report.by_id()["OK-AFTER-1"].results
    assert record.cause == (
        "not run: replaying test 1 of group 'default' (faults.rst, line 12) to rebuild its "
        "namespace failed: AssertionError: ran before"
    )
    # the crash replaced the executor and the rebuild after it failed: one cascade, whose
    # start is drafted as a skip (the next run then has no rebuild to fail), not its victim
    shown = "\n".join(triage.render(report))
    assert "cascade: after FAULT-1[1], 1 later example of faults.rst failed its rebuild" in shown
    assert f"setup  {record.cause}" in shown
    reasons = {d.requirement.id: d.reason() for d in drafts.drafts(report)[drafts.SKIPS]}
    assert list(reasons) == ["FAULT-1"]
    assert reasons["FAULT-1"].startswith(f"{drafts.TO_CONFIRM}{drafts.BREAKS}: after FAULT-1[1]")
    assert "ERROR faults.rst::OK-AFTER-1[1] - not run: replaying test 1" in output
    assert "RebuildFailed" not in output


def test_a_test_that_fails_again_when_replayed_is_no_one_else_s_fault(tmp_path: Path) -> None:
    folder = write_spec(tmp_path, "crash")
    spec = folder / "faults.rst"
    failing = "   print(base)\n   raise RuntimeError('example 1 fails, each time')\n"
    spec.write_text(spec.read_text().replace("   print(base)\n", failing))
    with suite(folder) as process:
        output = finish(process)
    assert outcomes(read_report(folder / "report.json")) == {
        "OK-BEFORE-1": ("failed", "exception"),
        "FAULT-1": ("failed", "crash"),
        "OK-AFTER-1": ("passed", ""),  # its namespace has ``base``, as Sphinx's would
        "OK-AFTER-2": ("passed", ""),
    }, output


HELPER_ADAPTER = """\
import subprocess
from pathlib import Path
from conformance.adapters.reference import adapter as reference

helper = subprocess.Popen(["sleep", "300"])
with open({pids!r}, "a") as pids:
    pids.write(f"{{helper.pid}}\\n")


def adapter():
    return reference()
"""


def test_helpers_started_by_the_adapters_import_do_not_outlive_the_run(tmp_path: Path) -> None:
    pids = tmp_path / "helpers.pid"
    (tmp_path / "helper_adapter.py").write_text(HELPER_ADAPTER.format(pids=str(pids)))
    with suite(
        write_spec(tmp_path, "crash"),
        "--impl", "helper_adapter:adapter",
        env={"PYTHONPATH": str(tmp_path)},
    ) as process:  # fmt: skip
        output = finish(process)
        left = [int(pid) for pid in pids.read_text().split()]
        assert left, output
        assert gone(left), f"helpers still running after the run: {left}"
    fault_alone(tmp_path, "crash", output)


def test_children_of_examples_die_when_the_controller_is_killed_outright(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    code = (
        "import subprocess, time\nchild = subprocess.Popen(['sleep', '300'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\ntime.sleep(3600)"
    )
    with suite(with_fault(tmp_path, code), "--example-timeout", "60") as process:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert process.poll() is None, "the run ended before the example started"
            assert time.monotonic() < deadline, "the example never started"
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert gone([int(pid_file.read_text())]), "an example's child outlived its controller"


def test_gevent_which_monkey_patches_its_process_is_validated_with_isolation(
    tmp_path: Path,
) -> None:
    # find_spec, not importorskip: importing the adapter would monkey-patch this process
    if importlib.util.find_spec("gevent") is None:
        pytest.skip("the gevent extra is not installed")
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--impl", "gevent", "-n", "1",
         "--report", str(report)],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert "INTERNALERROR" not in output
    assert done.returncode in (0, 1), output  # a verdict, whichever it is
    assert read_report(report).complete, output


MODULES_PROBE = """\
import json, os, sys


def pytest_sessionfinish(session):
    path = os.path.join(os.environ["MODULES_OUT"], f"{os.getpid()}.json")
    with open(path, "w") as out:
        json.dump(sorted(sys.modules), out)
"""


@pytest.mark.parametrize("workers", ["0", "1"])
def test_no_pytest_process_imports_the_implementation(workers: str, tmp_path: Path) -> None:
    (tmp_path / "modules_probe.py").write_text(MODULES_PROBE)
    out = tmp_path / "modules"
    out.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--impl", "reference", "-n", workers,
         "-k", "FORK-CALLS", "-p", "modules_probe"],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(tmp_path), "MODULES_OUT": str(out)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    seen = [json.loads(path.read_text()) for path in out.glob("*.json")]
    assert len(seen) == (1 if workers == "0" else 2)  # the controller, and its worker
    for modules in seen:
        assert "reference_impl" not in modules
        assert not [m for m in modules if m.startswith("conformance.adapters")]
        assert "conformance.executor.main" not in modules


def test_x_stops_at_the_first_failure_and_is_no_interruption(tmp_path: Path) -> None:
    with suite(write_spec(tmp_path, "crash"), "-x") as process:
        output = finish(process)
    assert process.returncode == 1, output
    report = read_report(tmp_path / "report.json")
    assert not report.interrupted, output
    assert not report.complete
    assert [r.outcome for r in report.requirements] == ["passed", "failed", "not-run", "not-run"]


def test_the_replay_command_of_a_failing_schedule_replays_that_failure(tmp_path: Path) -> None:
    (tmp_path / "racy.rst").write_text((FIXTURES / "racy.rst").read_text())
    first = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--spec-root", str(tmp_path),
         "--schedules", "4", "-k", "RACE-LOST-UPDATE-1"],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
    )  # fmt: skip
    assert first.returncode == 1, first.stdout
    line = next(line for line in first.stdout.splitlines() if "replay with:" in line)
    command = shlex.split(line.partition("replay with: ")[2])
    assert command[0] == "forkwait-conformance"
    assert "--spec-root" in command  # the same spec, not the installed one
    again = subprocess.run(
        [sys.executable, "-m", "conformance.cli", *command[1:]],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert again.returncode == 1, again.stdout
    schedule = command[command.index("--schedule") + 1]
    assert f"RACE-LOST-UPDATE-1[1][schedule {schedule}] FAILED" in again.stdout or (
        f"FAILED racy.rst::RACE-LOST-UPDATE-1[1][schedule {schedule}]" in again.stdout
    ), again.stdout


def test_executor_folders_of_runs_killed_outright_are_removed_by_the_next_run(
    tmp_path: Path,
) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    stale = temp / "forkwait-executor-999999999-abcd"  # no such harness
    stale.mkdir()
    an_hour_ago = time.time() - 3600
    os.utime(stale, (an_hour_ago, an_hour_ago))
    alive_run = temp / f"forkwait-executor-{os.getpid()}-efgh"  # a run still going
    alive_run.mkdir()
    bad_xfails = tmp_path / "bad.toml"
    bad_xfails.write_text("not toml [")
    spec = tmp_path / "spec"
    spec.mkdir()
    for extra in ((), ("--xfails-file", str(bad_xfails))):  # a run, then a usage error
        with suite(write_spec(spec, "crash"), *extra, env={"TMPDIR": str(temp)}) as process:
            output = finish(process)
        assert process.returncode in (1, 4), output
        left = sorted(p.name for p in temp.iterdir() if not p.name.startswith("pytest-of-"))
        assert left == [alive_run.name], output


def test_an_implementation_that_exits_while_imported_is_named_with_its_status(
    tmp_path: Path,
) -> None:
    """No example ran yet: the exit is the import's, and no fresh executor takes over."""
    (tmp_path / "exits_on_import.py").write_text("import os\nos._exit(3)\n")
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--impl", "exits_on_import:adapter"],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert (
        "importing implementation 'exits_on_import:adapter' ended the executor process "
        "with os._exit(3)"
    ) in output
    assert "the example" not in output
    assert "fresh one runs the next example" not in output
