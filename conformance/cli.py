"""``forkwait-conformance``: run the installed spec against an implementation, from anywhere.

The suite's options are the pytest plugin's own (conformance/run/plugin.py
declares them once; ``--help`` lists them from there). Every other option
goes to pytest unchanged (``-k``, ``-m``, ``-n``, ``--junitxml``...), as does
everything after ``--``. ``forkwait-conformance matrix`` renders reports side
by side; ``forkwait-conformance spec`` builds the spec's HTML for the rule links.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import pytest

from conformance import __version__
from conformance.adapter import available
from conformance.catalog.files import spec_dir
from conformance.reports.atomic import discard, write_atomically
from conformance.reports.drafts import DraftError, write_drafts
from conformance.reports.json_report import ReportError, read_report
from conformance.reports.matrix import to_markdown, to_rst
from conformance.reports.report_path import (
    REPORT_NOT_WRITTEN,
    claim,
    clash,
    junit_path,
    run_inputs,
)
from conformance.reports.triage import render as triage_lines
from conformance.run import spec_html
from conformance.run.options import add_options

PROG = "forkwait-conformance"
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
#: signals that stop a run as Ctrl-C does (``timeout``, ``docker stop``, a closed terminal)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


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


class _Parser(argparse.ArgumentParser):
    """Exits with pytest's usage-error status (4), not argparse's 2: 2 means stopped."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(int(pytest.ExitCode.USAGE_ERROR), f"{self.prog}: error: {message}\n")


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
    parser = _Parser(
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


def check_cache(folder: Path) -> str | None:
    """Why the per-user cache ``folder`` cannot be used (an unwritable HOME or
    XDG_CACHE_HOME), in one line, or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return (
            f"cannot use the cache folder {folder}: {exc.strerror or exc}; set XDG_CACHE_HOME "
            "(or HOME) to a folder you can write"
        )
    return None


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


def _usage_error(parser: argparse.ArgumentParser, message: str) -> int:
    """Bad input (not a bad command line): one line naming it, and status 4."""
    print(f"{parser.prog}: error: {message}", file=sys.stderr)
    return int(pytest.ExitCode.USAGE_ERROR)


def matrix_main(argv: Sequence[str]) -> int:
    """``forkwait-conformance matrix a.json b.json``: the side-by-side table."""
    parser = _Parser(
        prog=f"{PROG} matrix",
        description="Render requirement x implementation results from --report JSON files: "
        "the runs, totals per profile, then one row per requirement with its level and, per "
        "implementation, its outcome and the kind of failure (output, exception, timeout...).",
        epilog="Exit status: 0 the tables were written; 4 a usage error: a file that is not a "
        "report (malformed, not matching report.schema.json, nested too deeply) or an output "
        "that cannot be written, named in one line.",
    )
    parser.add_argument("reports", nargs="+", type=Path, help="JSON files written by --report")
    parser.add_argument(
        "--format",
        choices=("markdown", "rst"),
        default="markdown",
        help="markdown (default): GitHub-style tables; rst: list-table directives whose "
        "requirement IDs are :req: links, for a Sphinx project using conformance.sphinx_ext",
    )
    parser.add_argument("--output", type=Path, help="write here instead of standard output")
    options = parser.parse_args(argv)
    try:
        reports = [read_report(path) for path in options.reports]
    except ReportError as exc:
        return _usage_error(parser, str(exc))
    text = (to_rst if options.format == "rst" else to_markdown)(reports)
    if options.output:
        try:
            write_atomically(options.output, text)
        except OSError as exc:
            return _usage_error(parser, f"cannot write {options.output}: {exc.strerror or exc}")
    else:
        sys.stdout.write(text)
    return 0


def triage_main(argv: Sequence[str]) -> int:
    """``forkwait-conformance triage REPORT.json``: the failures by cause, and drafts."""
    parser = _Parser(
        prog=f"{PROG} triage",
        description="Show a run's failures one line each (the example, the kind of failure, "
        "its cause: the exception it raised or the first output line that differs), grouped "
        "by cause, the most frequent first. With --write-expectations, draft the files that "
        "declare them: DIR/xfails.toml (wrong output, exceptions) and DIR/skips.toml "
        "(timeouts, hangs, crashes, failed group setups: no expected failure absorbs those), "
        "one table per failing requirement with the failing examples and the measured cause "
        "as a reason marked TO CONFIRM. A run with --xfails-file DIR/xfails.toml --skips-file "
        "DIR/skips.toml then passes, as declared.",
        epilog="Exit status: 0 the view (and the files) were written; 4 a usage error: a "
        "file that is not a report, or drafts that would replace existing files (without "
        "--overwrite) or cannot be written.",
    )
    parser.add_argument("report", type=Path, help="a JSON file written by --report")
    parser.add_argument(
        "--write-expectations",
        type=Path,
        metavar="DIR",
        help="write DIR/xfails.toml and DIR/skips.toml, drafted from the report's failures",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace drafts already in DIR")
    options = parser.parse_args(argv)
    try:
        report = read_report(options.report)
    except ReportError as exc:
        return _usage_error(parser, str(exc))
    folder = options.write_expectations
    written: dict[Path, int] = {}
    if folder is not None:
        try:
            written = write_drafts(report, folder, str(options.report), overwrite=options.overwrite)
        except DraftError as exc:
            return _usage_error(parser, str(exc))
    for line in triage_lines(report):
        print(line)
    if not written:
        return 0
    print()
    for path, tables in written.items():
        print(f"wrote {path}: {tables} requirement{'s' * (tables != 1)}")
    xfails, skips = (shlex.quote(str(path)) for path in written)
    print(
        "confirm each reason (TO CONFIRM), then run again with: "
        f"--xfails-file {xfails} --skips-file {skips}"
    )
    return 0


def spec_main(argv: Sequence[str]) -> int:
    """``forkwait-conformance spec``: the installed spec as HTML, for the rule links."""
    parser = argparse.ArgumentParser(
        prog=f"{PROG} spec",
        description="Build the installed spec's HTML pages (with Sphinx) into a per-user "
        f"cache ({spec_html.html_dir()}), where the rule links of every run point; it "
        "rebuilds only what changed. Prints the index page.",
    )
    parser.add_argument("--open", action="store_true", help="open the index page in a browser")
    parser.add_argument(
        "--verbose", action="store_true", help="show Sphinx's progress and warnings"
    )
    options = parser.parse_args(argv)
    problem = check_cache(spec_html.cache_root())
    if problem is not None:
        print(f"{PROG} spec: {problem}", file=sys.stderr)
        return 1
    try:
        index = spec_html.build(quiet=not options.verbose)
    except spec_html.SpecBuildError as exc:
        print(f"{PROG} spec: {exc}", file=sys.stderr)
        return 1
    print(index.as_uri())
    if options.open and not spec_html.open_in_browser(index):
        print(f"{PROG} spec: no browser to open; the page is {index}", file=sys.stderr)
    return 0


#: ``forkwait-conformance NAME ...``: the commands besides a run
SUBCOMMANDS = {"matrix": matrix_main, "spec": spec_main, "triage": triage_main}


def _stop(signum: int, frame: FrameType | None) -> None:
    """Stop the run as Ctrl-C does: pytest ends the session, the plugin ends the workers
    and writes the report marked interrupted; exit status 2. Once is enough."""
    for other in STOP_SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")


def stop_like_ctrl_c() -> None:
    """Treat SIGTERM and SIGHUP as Ctrl-C (unless they are ignored, as under nohup)."""
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is signal.SIG_DFL:
            signal.signal(signum, _stop)


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
    stop_like_ctrl_c()
    return int(pytest.main(pytest_args(_to_pytest(args), options.spec_root)))


if __name__ == "__main__":
    sys.exit(main())
