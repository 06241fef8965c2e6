"""The suite's command-line options, declared once for pytest and for ``forkwait-conformance``.

The pytest plugin adds them to pytest's parser; the CLI adds them to its
argparse parser (for ``--help`` and validation) without importing the plugin,
which pytest must be the first to import.
"""

from __future__ import annotations

from typing import Any, Protocol

from conformance.run.implementation import DEFAULT_IMPL, ENV_IMPL

DEFAULT_EXAMPLE_TIMEOUT = 30.0
DEFAULT_SCHEDULES = 8


class _Group(Protocol):
    def addoption(self, *names: str, **attrs: Any) -> None: ...


class _Parser(Protocol):
    def getgroup(self, name: str, description: str = ...) -> Any: ...


def add_options(parser: _Parser) -> None:
    """Declare the suite's options (on pytest's parser, or anything shaped like it)."""
    group: _Group = parser.getgroup("forkwait", "forkwait conformance")
    group.addoption(
        "--impl",
        default=None,
        help=f"implementation under test: an entry-point name in 'forkwait.implementations' "
        f"or module:attribute (default: ${ENV_IMPL} or {DEFAULT_IMPL!r})",
    )
    group.addoption(
        "--example-timeout",
        type=float,
        default=DEFAULT_EXAMPLE_TIMEOUT,
        help="seconds one example may run (0: no limit). A hang Python can interrupt fails "
        "the example and the next one runs in a fresh worker; one it cannot (C code holding "
        "the GIL) ends the worker process, which pytest-xdist replaces (forkwait-conformance "
        "runs one worker for this)",
    )
    group.addoption(
        "--schedules",
        type=int,
        default=DEFAULT_SCHEDULES,
        metavar="N",
        help="also run the examples of :explore: requirements under N distinct controlled "
        "schedules, for implementations that can control task order (0: none)",
    )
    group.addoption(
        "--schedule",
        default=None,
        metavar="NAME",
        help="run explored examples under this one schedule only (replays a failure)",
    )
    group.addoption(
        "--report",
        default=None,
        metavar="PATH",
        help="write every requirement's and example's result as JSON (report.schema.json)",
    )
    group.addoption(
        "--xfails-file",
        default=None,
        metavar="TOML",
        help="requirements (or examples) expected to fail, with reasons; added to the "
        "adapter's own list (see conformance/catalog/expectations.py)",
    )
    group.addoption(
        "--skips-file",
        default=None,
        metavar="TOML",
        help="requirements (or examples) not to run at all, with reasons: known hangs and "
        "crashes; added to the adapter's own list",
    )
    group.addoption(
        "--strict-levels",
        action="store_true",
        default=False,
        help="a failed SHOULD or MAY requirement fails the run too (default: only MUSTs "
        "do); forkwait-conformance --strict sets it",
    )
    group.addoption(
        "--docs-url",
        default="",
        metavar="URL",
        help="base URL of the spec's HTML pages, for the links in failure reports "
        "(default: page name and anchor only)",
    )
    group.addoption(
        "--spec-root",
        default=None,
        metavar="DIR",
        help="folder of spec documents to run (default: the installed spec); it uses its own "
        "conf.py if it has one, else the spec's",
    )
