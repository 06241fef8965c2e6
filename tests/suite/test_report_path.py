"""The --report path is the user's: the run never deletes or replaces anything there but an
earlier report, refuses before the run otherwise, and survives a report it cannot write."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.command import build_parser
from conformance.reports.atomic import NotReplaceable, write_atomically
from conformance.reports.json_report import RunReport, write_report
from conformance.reports.report_path import REPORT_NOT_WRITTEN
from tests.paths import REPO
from tests.running import run_spec

pytest_plugins = ["pytester"]

ONE = (
    "One\n===\n\n.. requirement:: ONE-1\n   :profile: core\n   :level: MUST\n\n"
    "   It MUST print 1.\n\n"
    ".. testcode::\n\n   print(1)\n\n.. testoutput::\n\n   1\n"
)
ROOT = REPO


def _symlink(path: Path) -> str:
    (path.parent / "kept.json").write_text("the user's\n")
    path.symlink_to(path.parent / "kept.json")
    return "a symbolic link"


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return "a FIFO"


def _device(path: Path) -> str:
    try:  # the same device as /dev/null, made here: a regression must not cost the real one
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return "a device node"


def _folder(path: Path) -> str:
    path.mkdir()
    (path / "inside.txt").write_text("the user's\n")
    return "a folder"


def _snapshot(path: Path) -> tuple[int, str]:
    """What is at ``path``: its kind, and what a link points at or a folder holds."""
    mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode):
        return mode, os.readlink(path) + (path.parent / "kept.json").read_text()
    if stat.S_ISDIR(mode):
        return mode, ",".join(sorted(p.name for p in path.iterdir()))
    return mode, ""


@pytest.mark.parametrize("make", [_symlink, _fifo, _device, _folder])
def test_a_report_path_that_is_not_a_regular_file_is_refused_and_left_alone(
    pytester: pytest.Pytester, make: Callable[[Path], str]
) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    target = pytester.path / "r.json"
    kind = make(target)
    before = _snapshot(target)
    result = run_spec(pytester, "--report", "r.json", "--example-timeout", "10")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert f"cannot write the report to {target}: it is {kind}" in result.stderr.str()
    assert _snapshot(target) == before
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


@pytest.mark.parametrize(
    ("given", "args", "what"),
    [
        ("x.toml", ("--xfails-file", "x.toml"), "--xfails-file"),
        ("s.toml", ("--skips-file", "s.toml"), "--skips-file"),
        ("one.rst", (), "a document of the spec"),
        ("out.xml", ("--junitxml", "out.xml"), "the JUnit file (--junitxml)"),
    ],
)
def test_a_report_path_that_is_an_input_of_the_run_is_refused_and_kept(
    pytester: pytest.Pytester, given: str, args: tuple[str, ...], what: str
) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    for name in ("x.toml", "s.toml"):
        (pytester.path / name).write_text("")
    (pytester.path / "out.xml").write_text("<testsuites/>\n")
    before = (pytester.path / given).read_text()
    result = run_spec(pytester, *args, "--report", given)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert f"cannot write the report to {pytester.path / given}: it is {what}" in (
        result.stderr.str()
    )
    assert (pytester.path / given).read_text() == before


def test_the_command_refuses_before_pytest_and_keeps_what_is_there(tmp_path: Path) -> None:
    """The command claims the path before pytest starts (whose own usage errors would
    otherwise come first), and a usage error of its own removes no input either."""
    xfails = tmp_path / "x.toml"
    xfails.write_text('["FORK-CALLS-1"]\nreason = "r"\n')
    errors = []
    for extra in ((), ("--no-such-option",)):
        done = subprocess.run(
            [sys.executable, "-m", "conformance.cli", "--xfails-file", str(xfails),
             "--report", str(xfails), *extra],
            capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
        )  # fmt: skip
        assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
        assert xfails.read_text() == '["FORK-CALLS-1"]\nreason = "r"\n', extra
        errors.append(done.stderr)
    assert f"cannot write the report to {xfails}: it is --xfails-file ({xfails})" in errors[0]


FULL_DISK = """\
import errno

from conformance.reports import atomic


def full(path, text):
    raise OSError(errno.ENOSPC, "No space left on device", str(path))


atomic.write_atomically = full
"""


def test_a_report_that_cannot_be_written_at_the_end_still_gives_the_verdict(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "one.rst").write_text(ONE)
    (pytester.path / "conftest.py").write_text(FULL_DISK)
    result = run_spec(pytester, "--report", "r.json")
    text = result.stdout.str()
    assert result.ret == REPORT_NOT_WRITTEN, text + result.stderr.str()
    assert "verdict: " in text
    assert "MUST: 1/1 passed" in text
    assert (
        "the report was NOT written to r.json: No space left on device "
        f"(exit status {REPORT_NOT_WRITTEN})" in text
    )
    assert "Traceback" not in text + result.stderr.str()
    assert not (pytester.path / "r.json").exists()


def test_the_exit_status_of_an_unwritten_report_is_documented() -> None:
    help_text = " ".join(build_parser().format_help().split())
    assert f"{REPORT_NOT_WRITTEN} the run ended and printed its verdict, but its report" in (
        help_text
    )
    docs = " ".join((ROOT / "docs" / "validating.rst").read_text().split())
    assert f"``{REPORT_NOT_WRITTEN}`` the run ended and printed its verdict" in docs


def test_a_path_that_became_a_link_during_the_run_is_not_replaced(tmp_path: Path) -> None:
    """The writer checks again at the end: the path may have changed since the run began."""
    kept = tmp_path / "kept.txt"
    kept.write_text("the user's\n")
    link = tmp_path / "r.json"
    link.symlink_to(kept)
    with pytest.raises(NotReplaceable, match="it is a symbolic link, which is never replaced"):
        write_atomically(link, "{}\n")
    assert link.is_symlink()
    assert kept.read_text() == "the user's\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt", "r.json"]  # no temp left


def test_matrix_output_never_replaces_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.json"
    write_report(RunReport("impl", "1", ("core",), "0", "now", ()), report)
    (tmp_path / "kept.md").write_text("the user's\n")
    (tmp_path / "m.md").symlink_to(tmp_path / "kept.md")
    status = main(["matrix", str(report), "--output", str(tmp_path / "m.md")])
    assert status == pytest.ExitCode.USAGE_ERROR
    assert "it is a symbolic link, which is never replaced" in capsys.readouterr().err
    assert (tmp_path / "kept.md").read_text() == "the user's\n"
    assert (tmp_path / "m.md").is_symlink()
