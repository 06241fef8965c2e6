"""Bad input gets a clear error naming what was wrong: never a hang, an INTERNALERROR,
or a silent pass. Options are checked before any example runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.reports.json_report import RunReport, read_report, write_report
from tests.conftest import run_spec

pytest_plugins = ["pytester"]

ONE = (
    "One\n===\n\n.. requirement:: ONE-1\n   :profile: core\n   :level: MUST\n\n"
    "   It MUST print 1.\n\n"
    ".. testcode::\n\n   print(1)\n\n.. testoutput::\n\n   1\n"
)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--example-timeout", "-1"), "--example-timeout must be a finite number of seconds"),
        (("--example-timeout", "nan"), "--example-timeout must be a finite number of seconds"),
        (("--example-timeout", "inf"), "--example-timeout must be a finite number of seconds"),
        (("--schedules", "-3"), "--schedules must be 0 or more, got -3"),
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
    result.stdout.fnmatch_lines(["core*1*0*0*0*0*0*1"])
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
    with pytest.raises(SystemExit) as exit_info:
        main(["matrix", str(path)])
    assert exit_info.value.code == 2
    assert f"{path}" in capsys.readouterr().err


def test_matrix_names_an_output_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.json"
    write_report(RunReport("impl", "1", ("core",), "0", "now", ()), report)
    with pytest.raises(SystemExit):
        main(["matrix", str(report), "--output", "/proc/no/such/dir/m.md"])
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
"""


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        ("listed", "expected_failures must map requirement IDs to reasons"),
        ("nameless", "name must be a non-empty string, got None"),
        ("no_profiles", "profiles must be a set of profile names, got None"),
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
