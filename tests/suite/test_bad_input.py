"""Bad input gets a clear error naming what was wrong: never a hang, an INTERNALERROR,
or a silent pass. Options are checked before any example runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from conformance.cli import main
from conformance.reports.json_report import RunReport, read_report, write_report
from tests.paths import REPO
from tests.running import run_spec
from tests.suite.test_report_schema import schema

pytest_plugins = ["pytester"]
ROOT = REPO

ONE = (
    "One\n===\n\n.. requirement:: ONE-1\n   :profile: core\n   :level: MUST\n\n"
    "   It MUST print 1.\n\n"
    ".. testcode::\n\n   print(1)\n\n.. testoutput::\n\n   1\n"
)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--example-timeout", "-1"), "--example-timeout: must be 0 (no limit) or a number"),
        (("--example-timeout", "nan"), "--example-timeout: must be 0 (no limit) or a number"),
        (("--example-timeout", "inf"), "--example-timeout: must be 0 (no limit) or a number"),
        (("--example-timeout", "1e300"), "from 0.001 to 86400, got '1e300'"),
        # a float underflows to 0, which would mean no deadline at all
        (("--example-timeout", "1e-400"), "from 0.001 to 86400, got '1e-400'"),
        (("--schedules", "-3"), "--schedules: must be a whole number from 0 to 10000, got '-3'"),
        # a list of that many schedule names does not fit in memory
        (("--schedules", "99999999999"), "from 0 to 10000, got '99999999999'"),
        (("--probe-seed", "-1"), "--probe-seed: must be a whole number from 0 to 1844"),
        (("--probe-seed", "9" * 5000), "--probe-seed: must be a whole number from 0 to 1844"),
        # an unset variable in CI: `--impl "$IMPL"` would test the reference, `--report
        # "$OUT"` would write nothing, `--spec-root ""` would run the installed spec
        *(
            ((option, value), f"{option}: empty: give a value")
            for option in (
                "--impl",
                "--report",
                "--spec-root",
                "--xfails-file",
                "--skips-file",
                "--schedule",
            )
            for value in ("", " ")
        ),
        (("--schedule", "sometimes"), "--schedule 'sometimes': bad schedule 'sometimes'"),
        (("--report", "/proc/no/such/dir/r.json"), "cannot write the report to /proc/no/such"),
        (("--spec-root", "/no/such/folder"), "--spec-root /no/such/folder is not a folder"),
    ],
)
def test_a_bad_option_is_a_usage_error_before_anything_runs(
    pytester: pytest.Pytester, args: tuple[str, ...], message: str
) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    result = run_spec(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert message in result.stderr.str()
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_an_expected_failures_file_that_is_not_utf8_is_named(pytester: pytest.Pytester) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    (pytester.path / "bad.toml").write_bytes(b'["ONE-1"]\nreason = "caf\xe9"\n')
    result = run_spec(pytester, "--xfails-file", "bad.toml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*expected-failures file bad.toml: 'utf-8' codec can't decode*"])


def test_expected_failures_naming_a_missing_example_are_rejected(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    (pytester.path / "x.toml").write_text('["ONE-1"]\nreason = "r"\nexamples = [2]\n')
    result = run_spec(pytester, "--xfails-file", "x.toml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*x.toml: [[]ONE-1] names example(s) [[]2], but the requirement has 1*"]
    )


def test_a_document_that_is_not_utf8_is_a_usage_error_naming_it(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    (pytester.path / "latin.rst").write_bytes(b"Title\n=====\n\nCaf\xe9\n")
    result = run_spec(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*latin.rst, line 4: not utf-8* text (invalid continuation byte*"])


def test_a_requirement_whose_examples_never_ran_does_not_vanish(pytester: pytest.Pytester) -> None:
    # a misspelt directive: Sphinx warns, and the requirement has no example
    (pytester.path / "one.rst").write_text(ONE.replace(".. testcode::", ".. test-code::"))
    result = run_spec(pytester, "--report", "r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = result.stdout.str()
    assert "requirements with no example collected" in text
    assert "ONE-1" in text
    result.stdout.fnmatch_lines(["core*1*0*0*0*0*0*0*1"])
    record = read_report(pytester.path / "r.json").by_id()["ONE-1"]
    assert (record.outcome, record.examples) == ("not-run", 0)


def test_a_failing_example_outside_any_requirement_is_reported(pytester: pytest.Pytester) -> None:
    stray = "Stray\n=====\n\n.. testcode::\n\n   print(2)\n\n.. testoutput::\n\n   3\n\n"
    (pytester.path / "one.rst").write_text(stray + ONE.partition("\n\n")[2])
    result = run_spec(pytester, "--report", "r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "failed examples outside any requirement: 1" in result.stdout.str()
    report = read_report(pytester.path / "r.json")
    assert [(r.outcome, r.kind) for r in report.outside_requirements] == [("failed", "output")]
    assert report.by_id()["ONE-1"].outcome == "passed"


@pytest.mark.parametrize("content", [b"\xff\xfe not utf-8", b'{"format": 2}', b"[1, 2]"])
def test_matrix_rejects_what_is_not_a_report(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    assert main(["matrix", str(path)]) == pytest.ExitCode.USAGE_ERROR
    assert f"{path}" in capsys.readouterr().err


def test_matrix_names_an_output_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.json"
    write_report(RunReport("impl", "1", ("core",), "0", "now", ()), report)
    status = main(["matrix", str(report), "--output", "/proc/no/such/dir/m.md"])
    assert status == pytest.ExitCode.USAGE_ERROR
    assert "cannot write /proc/no/such/dir/m.md" in capsys.readouterr().err


def test_options_after_a_double_dash_go_to_pytest() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--", "--version"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0
    assert "pytest" in done.stdout + done.stderr


BROKEN_ADAPTERS = """\
from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference


def listed():
    return Adapter("listed", "1", reference().fw, frozenset({"core"}),
                   expected_failures=["ONE-1"])


def nameless():
    return Adapter(None, "1", reference().fw, frozenset({"core"}))


def no_profiles():
    return Adapter("np", "1", reference().fw, None)


def forged():
    return Adapter("ref conforms\\nMUST: 82/82 passed", "1", reference().fw, frozenset({"core"}))


def forged_version():
    return Adapter("ref", "1\\x1b[2K\\rMUST: 1/1 passed", reference().fw, frozenset({"core"}))
"""


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        ("listed", "expected_failures must map requirement IDs to reasons"),
        ("nameless", "name must be a non-empty string, got None"),
        ("no_profiles", "profiles must be a set of profile names, got None"),
        ("forged", "adapter name 'ref conforms\\nMUST: 82/82 passed' has a newline or control"),
        ("forged_version", "adapter version '1\\x1b[2K\\rMUST: 1/1 passed' has a newline"),
    ],
)
def test_an_adapter_whose_fields_have_the_wrong_type_is_a_clear_error(
    pytester: pytest.Pytester, factory: str, message: str
) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    (pytester.path / "broken_adapters.py").write_text(BROKEN_ADAPTERS)
    pytester.syspathinsert()
    result = run_spec(pytester, "--impl", f"broken_adapters:{factory}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert message in result.stderr.str()
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_a_requirement_id_the_report_schema_refuses_is_refused_by_the_directive(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "one.rst").write_text(ONE.replace("ONE-1", "one_1"))
    result = run_spec(pytester, "--report", "r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.stdout.fnmatch_lines(["*one.rst:4*requirement ID 'one_1' may hold only capital*"])
    data = json.loads((pytester.path / "r.json").read_text())
    jsonschema.validate(data, schema())  # every ID in it is one the schema accepts
    assert data["requirements"] == []


@pytest.mark.parametrize("option", ["--xfails-file", "--skips-file"])
def test_a_list_file_that_is_a_fifo_is_refused_not_waited_on(
    pytester: pytest.Pytester, option: str
) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    os.mkfifo(pytester.path / "list.toml")  # nothing ever writes to it: reading would hang
    result = pytester.runpytest_subprocess(
        "-p", "conformance.run.plugin", "-p", "no:doctest", "-p", "no:cacheprovider",
        "--spec-root", str(pytester.path), option, "list.toml", timeout=60,
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"{option} list.toml is not a regular file (a pipe, FIFO" in result.stderr.str()


def _command(
    spec: Path, *args: str, env: dict[str, str] | None = None, fds: tuple[int, ...] = ()
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--spec-root", str(spec), *args],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
        env={**os.environ, **(env or {})}, pass_fds=fds,
    )  # fmt: skip


def test_an_expected_failures_list_from_a_pipe_is_refused(tmp_path: Path) -> None:
    (tmp_path / "one.rst").write_text(ONE)
    read, write = os.pipe()
    os.write(write, b'["ONE-1"]\nreason = "r"\n')
    os.close(write)
    try:  # what `--xfails-file <(...)` gives: the pipe, as /dev/fd/N
        done = _command(tmp_path, "--xfails-file", f"/dev/fd/{read}", fds=(read,))
    finally:
        os.close(read)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert f"--xfails-file /dev/fd/{read} is not a regular file" in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_an_unusable_cache_folder_is_one_line_not_an_internal_error(tmp_path: Path) -> None:
    (tmp_path / "one.rst").write_text(ONE)
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("")  # as good as an unwritable HOME, also for root
    done = _command(tmp_path, env={"XDG_CACHE_HOME": str(not_a_folder)})
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        f"forkwait-conformance: error: cannot use the cache folder {not_a_folder}/"
        "forkwait-conformance: Not a directory; set XDG_CACHE_HOME (or HOME) to a folder "
        "you can write"
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 100_000, "is not a forkwait conformance report: nested too deeply"),
        ('{"format": 2, "requirements": [', "is not a forkwait conformance report: Expecting"),
    ],
    ids=["deeply-nested", "cut-short"],
)
def test_matrix_on_malformed_json_is_one_line(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    assert main(["matrix", str(path)]) == pytest.ExitCode.USAGE_ERROR
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"forkwait-conformance matrix: error: {path} {message}")


def test_matrix_on_a_report_breaking_its_schema_names_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    write_report(RunReport("impl", "1", ("core",), "0", "now", ()), path)
    data = json.loads(path.read_text())
    data["requirements"] = [{"id": "X\n| forged | row |", "profile": "core"}]
    path.write_text(json.dumps(data))
    assert main(["matrix", str(path)]) == pytest.ExitCode.USAGE_ERROR
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert f"{path} is not a forkwait conformance report: the report.requirements[0]" in err


def test_the_spec_command_names_an_unusable_cache_folder_in_one_line(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "spec"],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
        env={**os.environ, "XDG_CACHE_HOME": str(not_a_folder)},
    )  # fmt: skip
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert f"cannot use the cache folder {not_a_folder}/forkwait-spec/" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("--impl", ""),
        ("--report", ""),
        ("--impl=",),
        ("--example-timeout", "1e-400"),
        ("--schedules", "99999999999"),
    ],
)
def test_the_command_refuses_a_value_that_would_silently_mean_another(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """An unset ``$IMPL`` or ``$OUT`` in CI (``--impl "$IMPL"``) must not test the
    reference or write no report with exit 0; a timeout that underflows to 0 must not
    mean no deadline."""
    (tmp_path / "one.rst").write_text(ONE)
    done = _command(tmp_path, *args)
    option = args[0].partition("=")[0]
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert f"error: argument {option}: " in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_an_implementation_variable_set_but_empty_is_refused(tmp_path: Path) -> None:
    (tmp_path / "one.rst").write_text(ONE)
    done = _command(tmp_path, "-q", env={"FORKWAIT_IMPL": ""})
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert "$FORKWAIT_IMPL is set but empty" in done.stderr
    assert "passed" not in done.stdout
