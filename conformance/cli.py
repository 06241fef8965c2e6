"""``forkwait-conformance``: run the installed spec against an implementation, from anywhere.

Everything after the known options goes to pytest unchanged (``-k``, ``-m``,
``-n``, ``--junitxml``...).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from conformance import __version__
from conformance.adapter import available
from conformance.implementation import DEFAULT_IMPL, ENV_IMPL
from conformance.matrix import to_markdown, to_rst
from conformance.report import ReportError, read_report
from conformance.spec_files import spec_dir


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="forkwait-conformance",
        description="Run the forkwait spec's examples against an implementation and report "
        "per requirement. Unknown options are passed to pytest. "
        "'forkwait-conformance matrix A.json B.json' renders results side by side.",
    )
    parser.add_argument(
        "--impl",
        help=f"implementation: a registered name or module:attribute "
        f"(default: ${ENV_IMPL} or {DEFAULT_IMPL!r})",
    )
    parser.add_argument("--list", action="store_true", help="list registered implementations")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def pytest_args(impl: str | None, extra: Sequence[str]) -> list[str]:
    """The pytest command line that runs the spec documents with the plugin."""
    docs = spec_dir()
    args = [
        str(docs),
        "--rootdir",
        str(docs),
        "-p",
        "conformance.plugin",
        "-p",
        "no:doctest",
        "-p",
        "no:cacheprovider",
        "-rfEX",
    ]
    if impl:
        args += ["--impl", impl]
    if not any(arg == "-n" or arg.startswith(("-n", "--numprocesses")) for arg in extra):
        # One worker process, so an example that crashes or wedges it fails alone.
        # "load" with one worker keeps document order; "loadfile" is not used here
        # because pytest-xdist 3.8 can stall after replacing a crashed worker under it
        # (pytest-dev/pytest-xdist#784, #1378).
        args += ["-n", "1", "--dist", "load"]
    if not any(arg.startswith("--max-worker-restart") for arg in extra):
        args += ["--max-worker-restart", "1000"]
    return [*args, *extra]


def matrix_main(argv: Sequence[str]) -> int:
    """``forkwait-conformance matrix a.json b.json``: the side-by-side table."""
    parser = argparse.ArgumentParser(
        prog="forkwait-conformance matrix",
        description="Render requirement x implementation results from --report JSON files.",
    )
    parser.add_argument("reports", nargs="+", type=Path, help="JSON files written by --report")
    parser.add_argument("--format", choices=("markdown", "rst"), default="markdown")
    parser.add_argument("--output", type=Path, help="write here instead of standard output")
    options = parser.parse_args(argv)
    try:
        reports = [read_report(path) for path in options.reports]
    except ReportError as exc:
        parser.error(str(exc))
    text = (to_rst if options.format == "rst" else to_markdown)(reports)
    if options.output:
        options.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["matrix"]:
        return matrix_main(args[1:])
    options, extra = build_parser().parse_known_args(args)
    if options.list:
        for name, target in sorted(available().items()):
            print(f"{name:<16} {target}")
        return 0
    return int(pytest.main(pytest_args(options.impl, extra)))


if __name__ == "__main__":
    sys.exit(main())
