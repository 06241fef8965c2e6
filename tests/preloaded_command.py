"""``forkwait-conformance`` run in a process forked from one that has imported it already.

The mutant and latitude suites run the command a few hundred times, mostly on one
rule, where Python's start-up and the imports of pytest, Sphinx and the suite are a
third of each run's CPU time. multiprocessing's forkserver imports them once
(:func:`_preload`); each run is a process forked from it that calls the command's
``main`` with the run's arguments, environment and working folder, its stdout and
stderr going to a file, exactly as the installed command would run it from there on:
its own pytest session, its own executors, its exit status.
"""

from __future__ import annotations

import multiprocessing
import os
import runpy
import sys
from collections.abc import Mapping, Sequence
from multiprocessing import forkserver
from multiprocessing.context import ForkServerContext
from pathlib import Path

from sphinx.application import builtin_extensions

from conformance.catalog.files import spec_conf_dir
from conformance.cli import main

#: seconds a run may take before it is killed
RUN_TIMEOUT = 900.0


def _preload() -> list[str]:
    """The command, its pytest plugin, Sphinx's built-in extensions and the spec's."""
    conf = runpy.run_path(str(spec_conf_dir() / "conf.py"))
    return [
        "conformance.cli",
        "conformance.command",
        "conformance.run.plugin",
        "xdist.plugin",
        *builtin_extensions,
        *conf.get("extensions", []),
    ]


_context: ForkServerContext | None = None


def _forkserver() -> ForkServerContext:
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(_preload())
    return _context


def stop() -> None:
    """End the forkserver, if one runs, and wait for it: the CPU time of the runs it
    forked then counts as this process's children's, which the stages' table reports
    (an xdist worker ends without atexit). multiprocessing has no public call for it;
    this is the one its own tests use. The next run starts a new one."""
    forkserver._forkserver._stop()  # type: ignore[attr-defined]


def _command(argv: Sequence[str], env: Mapping[str, str], cwd: str, output: str) -> None:
    """The forked process: the command's ``main``, as its console script calls it."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.argv = ["forkwait-conformance", *argv]
    sys.exit(main(list(argv)))


def run_command(argv: Sequence[str], env: Mapping[str, str], cwd: Path, output: Path) -> int:
    """The command's exit status; what it printed is in ``output``.

    Raises:
        TimeoutError: it ran past :data:`RUN_TIMEOUT` (it was killed).
    """
    process = _forkserver().Process(
        target=_command, args=(list(argv), dict(env), str(cwd), str(output))
    )
    process.start()
    process.join(RUN_TIMEOUT)
    if process.exitcode is None:
        process.kill()
        process.join()
        raise TimeoutError(f"forkwait-conformance {' '.join(argv)} ran past {RUN_TIMEOUT:g} s")
    return process.exitcode
