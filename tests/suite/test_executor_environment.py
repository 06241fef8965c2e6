"""The executor's surroundings are the harness's: its interpreter flags, its environment,
its private folder, its cache and the implementation's code, whatever the user's shell,
working folder or an example did to them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.catalog.files import spec_conf_dir
from conformance.executor import processes
from conformance.executor.handle import ExecutorHandle, ExecutorUnavailable, Launch
from conformance.reports.json_report import read_report
from tests.suite.test_executor_boundary import fault_alone
from tests.suite.test_isolation import write_spec
from tests.suite.test_outside_world import finish, suite, with_fault

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def test_pythonoptimize_in_the_environment_does_not_strip_the_examples_asserts(
    tmp_path: Path,
) -> None:
    folder = with_fault(tmp_path, "assert False, 'an assert that must fail'")
    with suite(folder, env={"PYTHONOPTIMIZE": "2", "PYTHONINSPECT": "1"}) as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "exception", output)
    assert "AssertionError: an assert that must fail" in output


def test_an_executor_with_asserts_off_refuses_to_run_examples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def optimized(module: str, config: str) -> list[str]:
        return [sys.executable, "-O", "-m", module, config]

    monkeypatch.setattr(processes, "command", optimized)
    launch = Launch(str(spec_conf_dir()), "reference", 60)
    handle = ExecutorHandle(launch)
    try:
        with pytest.raises(ExecutorUnavailable, match="asserts off"):
            handle.request({"op": "describe", "count": 0, "replay": None})
    finally:
        handle.stop()


def test_a_module_in_the_working_folder_does_not_shadow_the_standard_library(
    tmp_path: Path,
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    (here / "code.py").write_text("raise SystemExit('the standard library was shadowed')\n")
    folder = write_spec(tmp_path, "crash")
    done = subprocess.run(  # -P: this harness does not import from its working folder either
        [sys.executable, "-P", "-m", "conformance.cli", "--spec-root", str(folder),
         "--example-timeout", "10", "--report", str(folder / "report.json")],
        capture_output=True, text=True, timeout=180, check=False, cwd=here,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    fault_alone(folder, "crash", output)


def test_the_executor_s_folder_removed_by_an_example_is_made_again(tmp_path: Path) -> None:
    code = (
        "import glob, os, shutil, tempfile\n"
        "for d in glob.glob(os.path.join(tempfile.gettempdir(), 'forkwait-executor-*')):\n"
        "    shutil.rmtree(d, ignore_errors=True)\n"
        "os._exit(3)"
    )
    temp = tmp_path / "temp"
    temp.mkdir()
    with suite(with_fault(tmp_path, code), env={"TMPDIR": str(temp)}) as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "crash", output)


@pytest.mark.parametrize("entry", ["*.doctree", "warned-docs.json"])
def test_an_unreadable_cache_entry_is_read_again_never_fatal(entry: str, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    folder = write_spec(tmp_path, "crash")
    for attempt in ("fills the cache", "reads it broken"):
        with suite(folder, env={"XDG_CACHE_HOME": str(cache)}) as process:
            output = finish(process)
        assert process.returncode == 1, f"the run that {attempt}:\n{output}"
        fault_alone(folder, "crash", output)
        broken = list(cache.glob(f"forkwait-conformance/d/sphinx-doctest/*/**/{entry}"))
        assert broken, sorted(map(str, cache.rglob("*")))
        for path in broken:
            path.write_bytes(b"\x80garbage, as a run killed while writing it may leave\n")


ADAPTER = """\
from dataclasses import replace
from conformance.adapters.reference import adapter as reference

VERSION = "1.0"


def adapter():
    return replace(reference(), version=VERSION)
"""


def edited_during_the_run(folder: Path) -> Path:
    """The spec of test_isolation.py whose FAULT-1 edits the adapter's file, then crashes
    (so that a fresh executor imports the edited file)."""
    module = folder / "edited_adapter.py"
    module.write_text(ADAPTER)
    code = (
        f"import os, pathlib\npath = pathlib.Path({str(module)!r})\n"
        "path.write_text(path.read_text().replace('1.0', '2.0'))\nos._exit(3)"
    )
    return with_fault(folder, code)


def test_an_implementation_changed_during_the_run_stops_it_by_name(tmp_path: Path) -> None:
    folder = edited_during_the_run(tmp_path)
    with suite(
        folder, "--impl", "edited_adapter:adapter", env={"PYTHONPATH": str(tmp_path)}
    ) as process:
        output = finish(process)
    assert process.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert "changed during the run" in output
    assert str(tmp_path / "edited_adapter.py") in output
    assert not (folder / "report.json").exists()  # no report names the wrong version


def test_under_xdist_the_examples_after_a_change_fail_naming_it(tmp_path: Path) -> None:
    folder = edited_during_the_run(tmp_path)
    with suite(
        folder, "-n", "1", "--impl", "edited_adapter:adapter",
        env={"PYTHONPATH": str(tmp_path)},
    ) as process:  # fmt: skip
        output = finish(process)
    assert process.returncode == 1, output
    records = read_report(folder / "report.json").by_id()
    assert (records["OK-BEFORE-1"].outcome, records["FAULT-1"].outcome) == ("passed", "failed")
    for later in ("OK-AFTER-1", "OK-AFTER-2"):  # a worker cannot stop the run: they fail
        assert records[later].outcome == "failed", output
        assert "changed during the run" in records[later].message
