"""``forkwait-conformance matrix``, ``triage`` and ``spec``: what the command does besides a run.

Each reads what a run left (a report) or builds what a run links to (the spec's
HTML); none starts pytest. ``conformance/cli.py`` dispatches to them by the
first argument and shares their usage-error convention (status 4, one line).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import pytest

from conformance.reports.atomic import write_atomically
from conformance.reports.drafts import DraftError, write_drafts
from conformance.reports.json_report import ReportError, read_report
from conformance.reports.matrix import to_markdown, to_rst
from conformance.reports.triage import incompleteness
from conformance.reports.triage import render as triage_lines
from conformance.run import spec_html

PROG = "forkwait-conformance"


class UsageParser(argparse.ArgumentParser):
    """Exits with pytest's usage-error status (4), not argparse's 2: 2 means stopped."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(int(pytest.ExitCode.USAGE_ERROR), f"{self.prog}: error: {message}\n")


def usage_error(parser: argparse.ArgumentParser, message: str) -> int:
    """Bad input (not a bad command line): one line naming it, and status 4."""
    print(f"{parser.prog}: error: {message}", file=sys.stderr)
    return int(pytest.ExitCode.USAGE_ERROR)


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


def matrix_main(argv: Sequence[str]) -> int:
    """``forkwait-conformance matrix a.json b.json``: the side-by-side table."""
    parser = UsageParser(
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
        return usage_error(parser, str(exc))
    text = (to_rst if options.format == "rst" else to_markdown)(reports)
    if options.output:
        try:
            write_atomically(options.output, text)
        except OSError as exc:
            return usage_error(parser, f"cannot write {options.output}: {exc.strerror or exc}")
    else:
        sys.stdout.write(text)
    return 0


def triage_main(argv: Sequence[str]) -> int:
    """``forkwait-conformance triage REPORT.json``: the failures by cause, and drafts."""
    parser = UsageParser(
        prog=f"{PROG} triage",
        description="Show a run's failures one line each (the example, the kind of failure, "
        "its cause: the exception it raised or the first output line that differs), grouped "
        "by cause, the most frequent first: an exception raised from one frame, or timeouts "
        "hung at one frame, are one cause; a cascade (examples that timed out after one that "
        "broke the engine) is one cause under the example that broke it; a failure the "
        "adapter's own code raised is an adapter error. With --write-expectations, draft the "
        "files that declare them: DIR/xfails.toml (wrong output, exceptions) and "
        "DIR/skips.toml (timeouts, hangs, crashes, failed group setups: no expected failure "
        "absorbs those; and the example that started a cascade), one table per failing "
        "requirement with the failing examples and the measured cause as a reason marked TO "
        "CONFIRM, plus every declaration the run counted. Adapter errors and a cascade's "
        "victims are not drafted. A run with --xfails-file DIR/xfails.toml --skips-file "
        "DIR/skips.toml then passes, as declared.",
        epilog="A report of an interrupted or partial run (-k, --quick) is said to be one "
        "first: its failures are only those of what ran. Exit status: 0 the view (and the "
        "files) were written; 4 a usage error: a file that is not a report (a FIFO or "
        "device included: only a regular file is read), drafts from an interrupted or "
        "partial run, or drafts that would replace existing files (without --overwrite) or "
        "cannot be written.",
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
        return usage_error(parser, str(exc))
    folder = options.write_expectations
    written: dict[Path, int] = {}
    if folder is not None:
        try:
            written = write_drafts(report, folder, str(options.report), overwrite=options.overwrite)
        except DraftError as exc:
            return usage_error(parser, str(exc))
    partly = incompleteness(report)
    if partly is not None:
        print(f"{options.report}: {partly}")
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
