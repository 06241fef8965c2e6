"""Verdicts that survive the outside world: what comes from outside an example's
own code path - a stopped process, a disarmed deadline, SIGTERM, children left running.

Each run goes through ``forkwait-conformance`` in a session of its own on the small
spec of test_isolation.py, bounded in time; whatever the run leaves in that session
is killed afterwards, so a regression fails the test instead of hanging it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.reports.json_report import read_report
from tests.suite.test_isolation import ROOT, TIMEOUT, outcomes, write_spec

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

#: no run here needs more (the deadlines are 2 s; the controller's comes at 6 s)
BOUND = 90.0


def session_processes(sid: int) -> list[int]:
    """Processes of session ``sid`` still alive (zombies are dead)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def kill_session(sid: int) -> list[int]:
    """SIGKILL (and SIGCONT) every process of the session; returns those it found."""
    found = session_processes(sid)
    for pid in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return found


@contextlib.contextmanager
def suite(
    folder: Path, *args: str, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[str]]:
    """``forkwait-conformance`` on ``folder`` in a session of its own, killed afterwards."""
    process = subprocess.Popen(
        [
            sys.executable, "-m", "conformance.cli", "--spec-root", str(folder),
            "--example-timeout", TIMEOUT, "--report", str(folder / "report.json"), *args,
        ],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True, env=None if env is None else {**os.environ, **env},
    )  # fmt: skip
    try:
        yield process
    finally:
        kill_session(process.pid)
        if process.poll() is None:
            process.kill()
        process.communicate()


def finish(process: subprocess.Popen[str], bound: float = BOUND) -> str:
    try:
        output, _ = process.communicate(timeout=bound)
    except subprocess.TimeoutExpired:
        kill_session(process.pid)
        output, _ = process.communicate()
        pytest.fail(f"the run did not end within {bound:g} s:\n{output[-3000:]}")
    return output


def wait_for(path: Path, process: subprocess.Popen[str], bound: float = 60) -> None:
    deadline = time.monotonic() + bound
    while not path.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{path.name} never appeared:\n{process.communicate()[0][-3000:]}")
        time.sleep(0.05)


def with_fault(folder: Path, code: str) -> Path:
    """The spec of test_isolation.py, its example 2 replaced by ``code``."""
    spec = write_spec(folder, "crash").joinpath("faults.rst")
    body = "\n".join(f"   {line}" for line in code.strip().splitlines())
    spec.write_text(spec.read_text().replace("   import os\n   os._exit(70)", body))
    return folder


# -- item 1: a deadline the worker cannot disarm ------------------------------------------

DISARMING = {
    "stops itself": "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)",
    "disarms its deadlines": (
        "import faulthandler, signal, threading, time\n"
        "faulthandler.cancel_dump_traceback_later()\n"
        "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n"
        "time.sleep(3600)"
    ),
}


@pytest.mark.parametrize(
    ("fault", "kind", "said"),
    [
        ("stops itself", "hang", "its executor process was ended"),
        # the executor's soft deadline is a signal of the harness's own: not SIGALRM
        ("disarms its deadlines", "timeout", "timed out after 2 s (--example-timeout)"),
    ],
)
def test_an_example_that_defeats_the_deadlines_inside_its_process_fails_as_a_hang(
    fault: str, kind: str, said: str, tmp_path: Path
) -> None:
    started = time.monotonic()
    with suite(with_fault(tmp_path, DISARMING[fault])) as process:
        output = finish(process)
    assert process.returncode == 1, output
    report = read_report(tmp_path / "report.json")
    assert outcomes(report)["FAULT-1"] == ("failed", kind), output
    assert said in report.by_id()["FAULT-1"].message
    assert all(outcomes(report)[i][0] == "passed" for i in ("OK-BEFORE-1", "OK-AFTER-2"))
    assert report.complete
    assert time.monotonic() - started < 60


# -- item 5: no process outlives the run ---------------------------------------------------


@pytest.mark.parametrize("then", ["passes", "crashes"])
def test_children_of_an_example_do_not_outlive_the_run(then: str, tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    code = (
        "import os, subprocess\nchild = subprocess.Popen(['sleep', '60'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))"
        + ("\nos._exit(3)" if then == "crashes" else "")
    )
    with suite(with_fault(tmp_path, code)) as process:
        output = finish(process)
        left = session_processes(process.pid)
    child = int(pid_file.read_text())
    assert child not in left, output
    assert left == [], f"still running after the run: {left}"


# -- item 2: SIGTERM and SIGHUP stop a run as Ctrl-C does -----------------------------------


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_stop_signal_ends_the_workers_and_leaves_an_interrupted_report(
    signum: signal.Signals, tmp_path: Path
) -> None:
    started = tmp_path / "started"
    code = f"import os, time\nopen({str(started)!r}, 'w').write(str(os.getpid()))\ntime.sleep(3600)"
    report = tmp_path / "report.json"
    report.write_text('{"complete": true, "left": "by an earlier run"}')
    with suite(with_fault(tmp_path, code), "--example-timeout", "60") as process:
        wait_for(started, process)
        os.kill(process.pid, signum)  # the controller only, as `timeout` and `docker stop` do
        output = finish(process, 30)
        left = session_processes(process.pid)
    assert process.returncode == pytest.ExitCode.INTERRUPTED, output
    assert "Traceback" not in output
    assert left == [], f"still running after the run: {left}"
    data = json.loads(report.read_text())
    assert (data["interrupted"], data["complete"]) == (True, False)
    runs = {r["id"]: r["outcome"] for r in data["requirements"]}
    assert runs["OK-BEFORE-1"] == "passed"
    assert runs["OK-AFTER-2"] == "not-run"


#: a stop that lands inside an import, caught on its way up by the code being imported (as
#: happens inside Sphinx's and docutils' imports): the next import fails, not with the stop
_HALF_MADE = """
import sys
from conformance import cli, stopping

class HalfMade:
    def find_spec(self, name, path=None, target=None):
        if name == "conformance.command" and not stopping.received:
            stopping.received.append("stopped by SIGTERM")
            sys.modules["docutils.parsers.rst"] = type(sys)("docutils.parsers.rst")
            raise AttributeError("module 'docutils.parsers.rst' has no attribute 'directives'")
        return None

sys.meta_path.insert(0, HalfMade())
sys.exit(cli.main(sys.argv[1:]))
"""


def test_a_stop_that_leaves_a_module_half_made_is_still_a_stop(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-c", _HALF_MADE, "--report", str(report), "-q"],
        cwd=ROOT, capture_output=True, text=True, timeout=BOUND, check=False,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )  # fmt: skip
    assert done.returncode == pytest.ExitCode.INTERRUPTED, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert "stopped by SIGTERM before any example ran" in done.stderr
    assert read_report(report).interrupted


def _catches(pid: int, signum: int) -> bool:
    """Has process ``pid`` a handler of its own for ``signum`` (``SigCgt``)?"""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


@pytest.mark.parametrize("delay", [0.0, 0.3, 1.5])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_in_the_first_moments_still_leaves_an_interrupted_report(
    signum: signal.Signals, delay: float, tmp_path: Path
) -> None:
    """On an empty cache the first seconds go to imports and Sphinx's read of the spec:
    a stop then is a stopped run too (exit 2, a report marked interrupted), never a death
    by signal, a traceback, or an earlier run's report left standing."""
    report = tmp_path / "report.json"
    report.write_text('{"complete": true, "left": "by an earlier run"}')
    process = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "--report", str(report), "-q"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )  # fmt: skip
    try:
        # from the moment the command owns the stop signals (its first import)
        deadline = time.monotonic() + BOUND
        while not _catches(process.pid, signal.SIGTERM) and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(delay)
        os.kill(process.pid, signum)
        output = finish(process, BOUND)
    finally:
        kill_session(process.pid)
    assert process.returncode == pytest.ExitCode.INTERRUPTED, output
    assert "Traceback" not in output
    written = read_report(report)
    assert (written.interrupted, written.complete) == (True, False)
    assert written.verdict().passed is False


@pytest.mark.parametrize(
    "bad",
    [
        ("--impl", "bogus:x"),
        ("--impl", ""),  # an unset variable: not a run of the default implementation
        ("--example-timeout", "-1"),
        ("--example-timeout", "soon"),  # refused by the command's own parser
        ("--spec-root", "/no/such"),
        ("--no-such-option", "x"),  # refused by pytest's
    ],
)
def test_a_usage_error_leaves_no_report_old_or_empty(bad: tuple[str, str], tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "crash")
    for report in (tmp_path / "old.json", tmp_path / "new.json"):
        if report.name == "old.json":
            report.write_text('{"complete": true}')
        done = subprocess.run(
            [sys.executable, "-m", "conformance.cli", "--spec-root", str(spec),
             "--report", str(report), *bad],
            capture_output=True, text=True, timeout=BOUND, check=False, cwd=ROOT,
        )  # fmt: skip
        assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
        assert not report.exists(), f"{report.name} left after {bad}"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["faults.rst"]


def test_a_report_is_replaced_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from conformance.reports import json_report  # noqa: PLC0415

    path = tmp_path / "report.json"
    empty = json_report.RunReport("impl", "1", ("core",), "0", "now", ())
    json_report.write_report(empty, path)
    before = path.read_text()

    def dies_midway(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", dies_midway)
    with pytest.raises(OSError, match="No space left"):
        json_report.write_report(empty, path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left


# -- item 3: every --dist mode the command accepts survives a crash --------------------------


@pytest.mark.parametrize("dist", ["load", "loadscope", "loadgroup"])
def test_a_crash_costs_one_example_under_every_accepted_dist_mode(
    dist: str, tmp_path: Path
) -> None:
    with suite(write_spec(tmp_path, "crash"), "-n", "2", "--dist", dist) as process:
        output = finish(process)
    assert process.returncode == 1, output
    report = read_report(tmp_path / "report.json")
    assert outcomes(report) == {
        "OK-BEFORE-1": ("passed", ""),
        "FAULT-1": ("failed", "crash"),
        "OK-AFTER-1": ("passed", ""),
        "OK-AFTER-2": ("passed", ""),
    }, output
    assert report.complete


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("-n", "1", "--dist", "worksteal"),
            "--dist worksteal: when a worker crashes, xdist's work",
        ),
        (("-n", "1", "--dist", "each"), "--dist each: it runs every example on every worker"),
    ],
)
def test_a_mode_where_a_crash_would_cost_more_is_refused(
    args: tuple[str, ...], said: str, tmp_path: Path
) -> None:
    with suite(write_spec(tmp_path, "crash"), *args) as process:
        output = finish(process)
    assert process.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert said in output
    assert "INTERNALERROR" not in output
    assert not (tmp_path / "report.json").exists()


def test_in_process_runs_when_asked_to_explicitly(tmp_path: Path) -> None:
    folder = write_spec(tmp_path, "system-exit")
    with suite(folder, "-n", "0") as process:
        output = finish(process)
    assert process.returncode == 1, output
    assert "created: 1/1 worker" not in output
    assert outcomes(read_report(folder / "report.json"))["FAULT-1"] == ("failed", "exception")


# -- item 6: an adapter that loads once but not in a fresh executor ----------------------------

SECOND_LOAD_FAILS = """\
import os
from pathlib import Path
from conformance.adapters.reference import adapter as reference


def adapter():
    loaded = Path(os.environ["LOADED_ONCE"])
    if loaded.exists():
        raise RuntimeError("no accelerator in this process")
    loaded.write_text("")
    return reference()
"""


def test_an_adapter_that_fails_in_a_fresh_executor_stops_the_run_once_with_its_traceback(
    tmp_path: Path,
) -> None:
    (tmp_path / "picky_adapter.py").write_text(SECOND_LOAD_FAILS)
    started = time.monotonic()
    with suite(
        write_spec(tmp_path, "crash"),  # the crash makes a fresh executor load it again
        "--impl", "picky_adapter:adapter",
        env={"PYTHONPATH": str(tmp_path), "LOADED_ONCE": str(tmp_path / "loaded")},
    ) as process:  # fmt: skip
        output = finish(process, 60)
    assert process.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert "a fresh executor (which imports it afresh) could not load it" in output
    assert 'picky_adapter.py", line 9, in adapter' in output  # the adapter's traceback
    assert "RuntimeError: no accelerator in this process" in output
    assert not (tmp_path / "report.json").exists()
    assert time.monotonic() - started < 30


# -- item 4: an output flood is capped, and freed after its example -----------------------

FLOOD = """Flood
=====

.. requirement:: BEFORE-FLOOD-1
   :profile: core
   :level: MUST

   Notes the worker's memory: MUST pass.

.. testcode::

   def resident():
       with open("/proc/self/statm") as statm:
           return int(statm.read().split()[1]) * 4096

   before = resident()

.. requirement:: FLOOD-1
   :profile: core
   :level: MUST

   Prints 200 MB to stdout and 20 MB to stderr.

.. testcode::

   import sys
   for _ in range(200):
       sys.stdout.write("x" * 1_000_000)
   for _ in range(20):
       sys.stderr.write("y" * 1_000_000)

.. testoutput::

   not that

.. requirement:: AFTER-FLOOD-1
   :profile: core
   :level: MUST

   The worker kept no copy of the flood: MUST pass.

.. testcode::

   print(resident() - before < 50 * 2**20)

.. testoutput::

   True
"""


def test_an_output_flood_is_capped_and_leaves_the_worker_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "flood.rst").write_text(FLOOD)
    with suite(tmp_path, "--example-timeout", "60") as process:  # a slow machine's time
        output = finish(process)
    assert process.returncode == 1, output[-3000:]
    report = read_report(tmp_path / "report.json")
    assert outcomes(report) == {
        "BEFORE-FLOOD-1": ("passed", ""),
        "FLOOD-1": ("failed", "output"),
        "AFTER-FLOOD-1": ("passed", ""),
    }, output[-3000:]
    assert len(report.by_id()["FLOOD-1"].message) < 4 * 2**20
    assert "198951424 more characters of output dropped" in output
    assert "more characters dropped: captured output is kept up to" in output
    assert len(output) < 8 * 2**20  # the 20 MB of stderr are not all shown


# -- a crash from a thread an earlier example left ----------------------------------------


def test_a_crash_from_a_thread_left_by_an_earlier_example_names_that_thread(
    tmp_path: Path,
) -> None:
    folder = write_spec(tmp_path, "crash")
    spec = folder / "faults.rst"
    text = spec.read_text().replace(
        "   base = 40\n",
        "   import os, threading, time\n"
        "   threading.Thread(target=lambda: (time.sleep(1), os._exit(9)), name='time-bomb',\n"
        "                    daemon=True).start()\n"
        "   base = 40\n",
    )
    spec.write_text(text.replace("   import os\n   os._exit(70)", "   time.sleep(5)"))
    with suite(folder) as process:
        output = finish(process)
    report = read_report(folder / "report.json")
    assert outcomes(report)["FAULT-1"] == ("failed", "crash"), output  # blamed on the next
    assert "threads alive when this example started" in output
    assert "time-bomb" in output


def test_a_relative_report_path_is_read_from_where_the_command_started(tmp_path: Path) -> None:
    """The run names items from the spec folder; the report still lands where the user
    said, relative to the folder the command was started in (as --junitxml does)."""
    started_in = tmp_path / "here"
    started_in.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--impl", "reference", "-q",
         "-k", "FORK-CALLS-1", "--report", "out/r.json"],
        capture_output=True, text=True, timeout=BOUND, check=False, cwd=started_in,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert read_report(started_in / "out" / "r.json").by_id()["FORK-CALLS-1"].outcome == "passed"
