"""The ``--report`` path is the user's: claimed before the run, never at the cost of an input.

A report replaces a regular file (an earlier report) and nothing else: not a
symbolic link, device node, FIFO or folder (atomic.py), and not a file the run
reads (the spec's documents and configuration, the expected-failures and skips
files) or writes otherwise (the JUnit file). Both the command and the pytest
plugin check it before anything runs, so a wrong path costs nothing and
removes nothing; only then is an earlier report there removed, so that a run
stopped before writing its own leaves none.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from conformance.catalog.files import spec_conf_dir
from conformance.reports import atomic
from conformance.reports.json_report import ReportError

#: exit status of a run whose verdict was printed but whose report could not be written
REPORT_NOT_WRITTEN = 6
#: the files of a spec folder Sphinx reads, besides its documents
_CONFIG_FILES = ("conf.py", "docutils.conf")


def run_inputs(spec_root: Path, named: Mapping[str, str | None]) -> dict[Path, str]:
    """Every file the run reads or writes besides the report, each with how to name it:
    the spec's documents and configuration, and ``named`` (``--xfails-file``: path...)."""
    inputs = {Path(path): what for what, path in named.items() if path}
    for folder in (spec_root, spec_conf_dir()):
        inputs.update({folder / name: "a file of the spec" for name in _CONFIG_FILES})
    inputs.update({doc: "a document of the spec" for doc in sorted(spec_root.rglob("*.rst"))})
    return inputs


def _same(one: Path, other: Path) -> bool:
    """The same file: the same path once resolved, or (hard links) the same inode."""
    try:
        if one.resolve() == other.resolve():
            return True
    except (OSError, RuntimeError):  # a symbolic link loop: not a file at all
        return False
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist
        return False


def clash(path: Path, inputs: Mapping[Path, str]) -> str | None:
    """How ``path`` would harm the run's inputs (``it is --xfails-file``), or None."""
    return next(
        (f"it is {what} ({where})" for where, what in inputs.items() if _same(path, where)), None
    )


def claim(path: Path, inputs: Mapping[Path, str]) -> None:
    """Check that the report can be written at ``path`` without harming anything, then
    remove an earlier report there; raise ReportError (a usage error) otherwise."""
    problem = clash(path, inputs)
    if problem is None:
        try:
            atomic.check_writable(path)
        except OSError as exc:
            problem = exc.strerror or str(exc)
    if problem is not None:
        raise ReportError(f"cannot write the report to {path}: {problem}")
    atomic.discard(path)


def junit_path(args: Iterable[str]) -> str | None:
    """The JUnit XML path a pytest command line gives (``--junitxml P``, ``--junit-xml=P``;
    the last one, as pytest takes it), or None."""
    found, words = None, list(args)
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in ("--junitxml", "--junit-xml"):
            value = value if equals else (words[index + 1] if index + 1 < len(words) else "")
            found = value or found
    return found
