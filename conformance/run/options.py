"""The suite's command-line options, declared once for pytest and for ``forkwait-conformance``.

The pytest plugin adds them to pytest's parser; the CLI adds them to its
argparse parser (for ``--help`` and validation) without importing the plugin,
which pytest must be the first to import.
"""

from __future__ import annotations

from typing import Any, Protocol

from conformance.run import option_values as values
from conformance.run.implementation import DEFAULT_IMPL, ENV_IMPL

DEFAULT_EXAMPLE_TIMEOUT = 30.0
DEFAULT_SCHEDULES = 8
#: the section of docs/validating.rst that gives the expected-failures/skips TOML format
FORMAT_SECTION = "Levels, expected failures and skips"


class _Group(Protocol):
    def addoption(self, *names: str, **attrs: Any) -> None: ...


class _Parser(Protocol):
    def getgroup(self, name: str, description: str = ...) -> Any: ...


def add_options(parser: _Parser) -> None:
    """Declare the suite's options (on pytest's parser, or anything shaped like it)."""
    group: _Group = parser.getgroup("forkwait", "forkwait conformance")
    group.addoption(
        "--impl",
        type=values.non_empty,
        default=None,
        metavar="NAME",
        help="implementation under test: an entry-point name in 'forkwait.implementations', "
        "or module:attribute naming a conformance.adapter.Adapter or a function returning "
        f"one (default: ${ENV_IMPL} or {DEFAULT_IMPL!r})",
    )
    group.addoption(
        "--example-timeout",
        type=values.example_timeout,
        default=DEFAULT_EXAMPLE_TIMEOUT,
        metavar="SECONDS",
        help=f"seconds one example may run (default: {DEFAULT_EXAMPLE_TIMEOUT:g}; 0: no limit), "
        f"else from {values.MIN_EXAMPLE_TIMEOUT:g} to {values.MAX_EXAMPLE_TIMEOUT:g}. "
        "A hang Python can interrupt fails the example as timed out and the next one runs in "
        "a fresh executor process; one it cannot (C code holding the GIL, a stopped process) "
        "is dumped and killed, and fails as a hang. A "
        "SHOULD example that times out is a failed SHOULD: it fails the run only with "
        "--strict",
    )
    group.addoption(
        "--schedules",
        type=values.schedules,
        default=DEFAULT_SCHEDULES,
        metavar="N",
        help="also run the examples of :explore: requirements under N distinct controlled "
        f"schedules (default: {DEFAULT_SCHEDULES}; 0: none; at most {values.MAX_SCHEDULES}), "
        "for implementations whose adapter gives an explorer (others run each example once)",
    )
    group.addoption(
        "--quick",
        action="store_true",
        default=False,
        help="run the requirements' examples only, not their probes (the checks of each "
        "rule's whole text, folded under it in the spec): a first look, not a verdict on "
        "conformance",
    )
    group.addoption(
        "--probe-seed",
        type=values.probe_seed,
        default=None,
        metavar="N",
        help="the seed of the programs the generated-program probes draw (default: a fixed "
        "seed, the same every run; 0 to 2**64-1); a failure names the seed that finds it again",
    )
    group.addoption(
        "--schedule",
        type=values.non_empty,
        default=None,
        metavar="NAME",
        help="run explored examples under this one schedule only (replays a failure)",
    )
    group.addoption(
        "--report",
        type=values.non_empty,
        default=None,
        metavar="PATH",
        help="write every requirement's and example's result as JSON (report.schema.json)",
    )
    group.addoption(
        "--xfails-file",
        type=values.non_empty,
        default=None,
        metavar="TOML",
        help="requirements (or examples) expected to fail, with reasons; added to the "
        "adapter's own list. Its TOML format: the spec's page 'Validating your "
        f"implementation', section '{FORMAT_SECTION}'",
    )
    group.addoption(
        "--skips-file",
        type=values.non_empty,
        default=None,
        metavar="TOML",
        help="requirements (or examples) not to run at all, with reasons: known hangs and "
        "crashes; added to the adapter's own list (the same TOML format as --xfails-file)",
    )
    group.addoption(
        "--strict-levels",
        action="store_true",
        default=False,
        help="fail the run when a SHOULD or MAY requirement fails too. Without it a failed "
        "SHOULD or MAY (a timeout included) is reported as failed but the run passes; only "
        "failed MUSTs, unexpected passes and requirements with no example fail it",
    )
    group.addoption(
        "--docs-url",
        default="",
        metavar="URL",
        help="base URL of the spec's HTML pages, for the links to the rules in failure "
        "reports (default: the installed spec's pages, built by 'forkwait-conformance spec' "
        "into a per-user cache, as file:// URLs; for another --spec-root: page name and "
        "anchor only)",
    )
    group.addoption(
        "--spec-root",
        type=values.non_empty,
        default=None,
        metavar="DIR",
        help="folder of spec documents to run (default: the installed spec); it uses its own "
        "conf.py if it has one, else the spec's",
    )
