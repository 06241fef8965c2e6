"""``forkwait-conformance``: run the installed spec against an implementation, from anywhere.

Its entry point is cli.py, which takes over the stop signals (stopping.py)
before this module, and pytest with it, is imported.

The suite's options are the pytest plugin's own (conformance/run/plugin.py
declares them once; ``--help`` lists them from there). Every other option
goes to pytest unchanged (``-k``, ``-m``, ``-n``, ``--junitxml``...), as does
everything after ``--``. The subcommands (``triage``, ``matrix``, ``spec``) are
in subcommands.py.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from conformance import __version__, stopping
from conformance.adapter import AdapterError, available
from conformance.catalog.files import spec_dir
from conformance.reports.atomic import discard
from conformance.reports.json_report import ReportError, RunReport, write_report
from conformance.reports.report_path import (
    REPORT_NOT_WRITTEN,
    claim,
    clash,
    junit_path,
    run_inputs,
)
from conformance.run.implementation import impl_name
from conformance.run.options import add_options
from conformance.subcommands import PROG, SUBCOMMANDS, UsageParser, check_cache

#: this command's own pytest configuration (an empty one), shipped with the package
_INI = Path(__file__).with_name("cli-pytest.ini")
_EPILOG = f"""\
Any other option goes to pytest: -k EXPR (requirements by ID), -m profile_async,
-n N (workers), --junitxml PATH, -x, -v ... Options after "--" go to pytest as
they are ({PROG} -- --help shows pytest's own).

Other commands (each with its own --help):
  {PROG} triage REPORT.json
      a run's failures by cause; --write-expectations DIR drafts the files that
      declare them
  {PROG} matrix A.json B.json
      reports side by side
  {PROG} spec [--open]
      the spec's HTML, where the rule links of a run point

Exit status: 0 every blocking requirement passed; 1 some failed; 2 the run was
stopped (Ctrl-C, SIGTERM or SIGHUP: the report is marked interrupted); 3 an
internal error; 4 a usage error (no report is written, and an earlier one at
--report is removed); {REPORT_NOT_WRITTEN} the run ended and printed its verdict, but its report
could not be written (a full disk). --report replaces only a regular file that
is no input of the run: a symbolic link, device, FIFO, folder, the spec's
files, --xfails-file, --skips-file or the JUnit path there is a usage error.
"""
#: the variable unexpanded() spells "$" with
_DOLLAR = "FORKWAIT_CONFORMANCE_DOLLAR"


class _PytestGroup:
    """Lets the plugin's ``pytest_addoption`` declare its options on argparse too."""

    def __init__(self, group: Any) -> None:
        self._group = group

    def addoption(self, *names: str, **attrs: Any) -> None:
        if "--strict-levels" in names:  # pytest owns --strict; this command does not
            names = ("--strict",)
        self._group.add_argument(*names, **attrs)


class _PytestParser:
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self._parser = parser

    def getgroup(self, name: str, description: str = "") -> _PytestGroup:
        return _PytestGroup(self._parser.add_argument_group(description or name))


#: the first lines of --help: what --impl names, and where the guide is
_DESCRIPTION = """\
Run the forkwait spec's examples against an implementation and report per requirement.

--impl NAME names the implementation under test: a registered name (--list shows
them), or MODULE:ATTR naming a conformance.adapter.Adapter or a function that returns
one (MODULE must be importable by this Python). How to write an adapter, read a run's
failures and declare what your engine knowingly fails: the spec's page "Validating
your implementation" (validating.rst; as HTML: forkwait-conformance spec --open).
"""


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog=PROG,
        usage=f"{PROG} [--impl NAME] [options] [pytest options]\n       {PROG} "
        "{matrix,spec,triage} ...",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--list", action="store_true", help="list registered implementations")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_options(_PytestParser(parser))
    return parser


def cache_dir() -> Path:
    """pytest's cache (and Sphinx's environment) for runs of the installed suite, per user."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "forkwait-conformance"


def pytest_args(extra: Sequence[str], spec_root: str | None = None) -> list[str]:
    """The pytest command line that runs the spec documents with the plugin."""
    docs = Path(spec_root).resolve() if spec_root else spec_dir()
    args = [str(docs), "--rootdir", unexpanded(str(docs)), "-c", str(_INI)]
    args += ["-p", "conformance.run.plugin", "-p", "no:doctest"]
    # hypothesis's pytest plugin imports all of hypothesis at the end of every run (~1 s)
    args += ["-p", "no:hypothesispytest"]
    args += ["-o", f"cache_dir={unexpanded(str(cache_dir()))}", "-rfE"]
    if not any(arg == "-n" or arg.startswith(("-n", "--numprocesses")) for arg in extra):
        # Examples run in an executor process whatever -n says (conformance/executor/):
        # xdist's workers only add start-up time to a run of this size.
        args += ["-n", "0"]
    if not any(arg.startswith("--max-worker-restart") for arg in extra):
        args += ["--max-worker-restart", "1000"]
    return [*args, *extra]


def unexpanded(path: str) -> str:
    """``path`` written so that it reaches pytest unchanged: pytest expands ``$NAME`` in
    --rootdir and cache_dir (os.path.expandvars), so each ``$`` becomes a variable whose
    value is ``$`` (set here, and inherited by xdist's workers)."""
    if "$" not in path:
        return path
    os.environ[_DOLLAR] = "$"
    return path.replace("$", f"${{{_DOLLAR}}}")


def _to_pytest(args: list[str]) -> list[str]:
    """This command's spelling of options -> pytest's (``--strict``; ``--`` ends ours)."""
    if "--" in args:
        cut = args.index("--")
        return _to_pytest(args[:cut]) + args[cut + 1 :]
    return ["--strict-levels" if arg == "--strict" else arg for arg in args]


def _report_and_inputs(args: list[str]) -> tuple[Path | None, dict[Path, str]]:
    """The --report path of a command line, and every file of the run it must not harm."""
    parser = argparse.ArgumentParser(add_help=False)
    for option in ("--report", "--xfails-file", "--skips-file", "--spec-root"):
        parser.add_argument(option)
    known, _ = parser.parse_known_args(args)
    if not known.report:
        return None, {}
    named = {
        "--xfails-file": known.xfails_file,
        "--skips-file": known.skips_file,
        "the JUnit file (--junitxml)": junit_path(args),
    }
    root = Path(known.spec_root) if known.spec_root else spec_dir()
    return Path(known.report), run_inputs(root, named)


def _discard_old_report(args: list[str]) -> None:
    """An earlier run's report at --report goes when the command line is wrong: a run
    that stops on bad input must not leave it, looking like its own (but an input of
    the run given as --report by mistake stays)."""
    report, inputs = _report_and_inputs(args)
    if report is not None and clash(report, inputs) is None:
        discard(report)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    stopping.claimed.clear()  # a report claimed by an earlier run in this process is not ours
    subcommand = SUBCOMMANDS.get(args[0]) if args else None
    if subcommand is not None:
        return subcommand(args[1:])
    ours = args[: args.index("--")] if "--" in args else args
    try:
        options, _ = build_parser().parse_known_args(ours)
    except SystemExit as exc:
        if exc.code:  # a usage error
            _discard_old_report(ours)
        raise
    if options.list:
        for name, target in sorted(available().items()):
            print(f"{name:<16} {target}")
        return 0
    problem = check_cache(cache_dir())
    if problem is not None:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
        return int(pytest.ExitCode.USAGE_ERROR)
    report, inputs = _report_and_inputs(args)
    if report is not None:  # before pytest, whose own usage errors come before the plugin's
        try:
            claim(report, inputs)
        except ReportError as exc:
            print(f"{PROG}: error: {exc}", file=sys.stderr)
            return int(pytest.ExitCode.USAGE_ERROR)
        stopping.claimed.append(report)
    return int(pytest.main(pytest_args(_to_pytest(args), options.spec_root)))


def leave_interrupted_report(args: list[str], stopped: KeyboardInterrupt | None) -> None:
    """A run stopped before its session could write the report (while the suite was
    imported, or Sphinx read the spec) still leaves one at --report, marked interrupted,
    with no result: an earlier run's report there could pass for this one's, and a CI
    job that reads the file must find one."""
    why = "stopped" if stopped is None else str(stopped) or "stopped by Ctrl-C (SIGINT)"
    if args and args[0] in SUBCOMMANDS:
        print(f"{PROG}: {why}", file=sys.stderr)
        return
    report, inputs = _report_and_inputs(args)
    if report is None or (report in stopping.claimed and report.exists()):
        if stopped is not None:
            print(f"{PROG}: {why} before any example ran", file=sys.stderr)
        return  # no report asked for, or the session wrote its own
    try:
        if report not in stopping.claimed:
            claim(report, inputs)
        write_report(_nothing_ran(args), report)
    except (ReportError, OSError) as exc:
        print(f"{PROG}: {why}; the report was NOT written: {exc}", file=sys.stderr)
        return
    print(
        f"{PROG}: {why} before any example ran; {report}: a report marked interrupted, "
        "with no result",
        file=sys.stderr,
    )


def _nothing_ran(args: list[str]) -> RunReport:
    """The report of a run stopped before any example ran: interrupted, incomplete, no
    result; the implementation as --impl (or $FORKWAIT_IMPL) named it, its version
    unknown (it was not loaded)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--impl")
    known, _ = parser.parse_known_args(args[: args.index("--")] if "--" in args else args)
    try:
        name = impl_name(known.impl)
    except AdapterError:
        name = ""
    created = datetime.now(UTC).isoformat(timespec="seconds")
    return RunReport(name, "", (), __version__, created, (), complete=False, interrupted=True)
