"""``sphinx-build -b doctest`` against ``pytest -p conformance.sphinx_doctest``, same project.

A generated Sphinx project (by default 20 documents x 100 ``testcode``/``testoutput``
pairs, one ``testsetup`` per document) is run whole, as separate processes, by each
contender in turn, several times, and the min and median wall times are printed
with their ratio to ``sphinx-build``'s. Every contender must pass every test (exit
status 0); one that does not is reported and left out of the table.

``--spec`` runs the forkwait spec itself (docs/ with conf/conf.py) instead.

Besides ``sphinx-build -E`` (the baseline) and ``sphinx-build`` reusing its
environment, the plugin fresh and with its Sphinx environment cached, and the
conformance CLI with its isolation worker, it times pytest alone collecting and
running one bare custom item (``runtest`` does nothing) per test of the project:
pytest's own per-item cost, a floor no one-item-per-test plugin can go below.
On the generated project of 2,020 tiny tests that floor alone is about 1.1x
``sphinx-build -E``, and reading the documents (the difference between the two
sphinx-build rows, which the plugin pays too, as it reads with Sphinx) about
0.4x more; on the spec, whose documents take longer to read than to run, the
floor is negligible.

Run: ``python benchmarks/doctest_vs_sphinx.py [--spec] [--documents N] [--pairs N] [--repeats N]``
(from the repository root or from ``benchmarks/``). To add a contender, append a
``Contender`` to ``contenders()``: it gets the source dir and a fresh output dir.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CONF = """\
project = "benchmark"
extensions = ["sphinx.ext.doctest"]
doctest_global_setup = "import math"
"""


def make_project(root: Path, documents: int = 20, pairs: int = 100) -> Path:
    """Write a Sphinx source dir under ``root``: ``documents`` documents of ``pairs`` tests.

    Each document has a ``testsetup`` and ``pairs`` ``testcode``/``testoutput`` pairs
    (alternating between the groups ``default`` and ``other``), a ``doctest`` block and a
    ``testcleanup``; all pass. Returns the source dir (it holds ``conf.py``).
    """
    source = root / "src"
    source.mkdir(parents=True)
    (source / "conf.py").write_text(CONF, encoding="utf-8")
    names = [f"doc{number:03d}" for number in range(documents)]
    toctree = "\n".join(f"   {name}" for name in names)
    (source / "index.rst").write_text(
        f"Benchmark\n=========\n\n.. toctree::\n\n{toctree}\n", encoding="utf-8"
    )
    for name in names:
        parts = [
            f"{name}\n{'=' * len(name)}\n",
            ".. testsetup:: default, other\n\n   total = 0\n",
        ]
        totals = {"default": 0, "other": 0}
        for number in range(pairs):
            group = "default" if number % 2 == 0 else "other"
            totals[group] += number
            parts.append(
                f".. testcode:: {group}\n\n"
                f"   total += {number}\n"
                f"   print(total, math.isqrt({number}))\n\n"
                f".. testoutput:: {group}\n\n"
                f"   {totals[group]} {int(number**0.5)}\n"
            )
        parts.append(f".. doctest::\n\n   >>> total\n   {totals['default']}\n")
        parts.append(".. testcleanup:: default, other\n\n   del total\n")
        (source / f"{name}.rst").write_text("\n".join(parts), encoding="utf-8")
    return source


@dataclass(frozen=True)
class Project:
    """A Sphinx source folder and the folder of its conf.py."""

    source: Path
    confdir: Path


@dataclass
class Contender:
    """A whole process that runs every test of the project."""

    name: str
    command: Callable[[Project, Path], list[str]]  # (project, fresh output dir) -> argv
    times: list[float] = field(default_factory=list)
    failure: str | None = None


def sphinx_build(project: Project, out: Path) -> list[str]:
    conf = ["-c", str(project.confdir)]
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "doctest",
        "-E",
        "-q",
        *conf,
        str(project.source),
        str(out),
    ]


def pytest_plugin(project: Project, out: Path) -> list[str]:
    del out  # pytest writes nothing
    plugins = ["-p", "conformance.sphinx_doctest", "-p", "no:cacheprovider"]
    conf = ["--sphinx-confdir", str(project.confdir)]
    return [sys.executable, "-m", "pytest", *plugins, *conf, str(project.source), "-q"]


def pytest_plugin_cached(project: Project, out: Path) -> list[str]:
    """The plugin reusing the Sphinx environment of its previous run (a second run)."""
    cache = out.parent / "sphinx-cache"
    return [*pytest_plugin(project, out), "--sphinx-cache-dir", str(cache)]


def conformance_cli(project: Project, out: Path) -> list[str]:
    """The conformance CLI: the same tests, in its pytest-xdist isolation worker."""
    del out
    command = [sys.executable, "-m", "conformance.cli", "-q"]
    if project.source != REPO / "docs":  # the spec is the CLI's default
        command += ["--spec-root", str(project.source)]
    return command


FLOOR_CONFTEST = """\
import pytest


class Nothing(pytest.Item):
    def runtest(self) -> None:
        pass


class Document(pytest.File):
    def collect(self):
        for number in range(int(self.path.read_text())):
            yield Nothing.from_parent(self, name=f"test{number}")


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".floor":
        return Document.from_parent(parent, path=file_path)
    return None
"""


def pytest_floor(project: Project, out: Path) -> list[str]:
    """pytest alone: one minimal custom item per test, in files laid out as the documents."""
    floor = out.parent / "floor"
    if not floor.is_dir():
        floor.mkdir()
        (floor / "conftest.py").write_text(FLOOR_CONFTEST, encoding="utf-8")
        for document in project.source.glob("*.rst"):
            text = document.read_text(encoding="utf-8")
            tests = text.count(".. testcode::") + text.count(".. doctest::")
            (floor / f"{document.stem}.floor").write_text(str(tests), encoding="utf-8")
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(floor), "-q"]


def sphinx_build_cached(project: Project, out: Path) -> list[str]:
    """sphinx-build reusing its environment (no -E): it reads no document, only runs."""
    command = sphinx_build(project, out.parent / "sphinx-kept-out")
    command.remove("-E")
    return command


def contenders() -> list[Contender]:
    """The first is the baseline of the ratios."""
    return [
        Contender("sphinx-build -b doctest -E", sphinx_build),
        Contender("  same, environment cached (no -E)", sphinx_build_cached),
        Contender("pytest -p conformance.sphinx_doctest", pytest_plugin),
        Contender("  same, Sphinx environment cached", pytest_plugin_cached),
        Contender("forkwait-conformance (isolation worker)", conformance_cli),
        Contender("pytest alone: a bare item per test", pytest_floor),
    ]


#: as on a developer's machine: bytecode is cached (pytest caches its rewritten plugins)
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run_once(contender: Contender, project: Project, scratch: Path) -> float | None:
    out = scratch / "out"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    done = subprocess.run(
        contender.command(project, out),
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env=ENV,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
        contender.failure = f"exit status {done.returncode}\n{tail}"
        return None
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=20)
    parser.add_argument("--pairs", type=int, default=100, help="testcode/testoutput pairs a doc")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per contender")
    parser.add_argument(
        "--spec",
        action="store_true",
        help="run the forkwait spec itself instead of a generated project",
    )
    args = parser.parse_args()
    field_ = contenders()
    with tempfile.TemporaryDirectory(prefix="doctest-bench-") as tmp:
        scratch = Path(tmp)
        if args.spec:
            project = Project(REPO / "docs", REPO / "conf")
            print("the forkwait spec (docs/, conf/conf.py), against the reference")
        else:
            source = make_project(scratch, args.documents, args.pairs)
            project = Project(source, source)
            tests = args.documents * (args.pairs + 1)
            print(
                f"{args.documents} documents x {args.pairs} testcode/testoutput pairs "
                f"({tests} tests)"
            )
        for contender in field_:  # warm-up: imports, .pyc files
            run_once(contender, project, scratch)
        for _ in range(args.repeats):  # interleaved, so a noisy neighbour hits all alike
            for contender in field_:
                if contender.failure is None:
                    elapsed = run_once(contender, project, scratch)
                    if elapsed is not None:
                        contender.times.append(elapsed)
    baseline = field_[0]
    print(f"\n{'contender':40} {'min s':>8} {'median s':>9} {'min x':>7} {'median x':>9}")
    for contender in field_:
        if contender.failure is not None or not contender.times:
            print(f"{contender.name:40} failed: {contender.failure}")
            continue
        low, mid = min(contender.times), statistics.median(contender.times)
        if baseline.times:
            ratios = (
                f"{low / min(baseline.times):7.2f} {mid / statistics.median(baseline.times):9.2f}"
            )
        else:
            ratios = f"{'-':>7} {'-':>9}"
        print(f"{contender.name:40} {low:8.2f} {mid:9.2f} {ratios}")
    print(f"\n(x: ratio to {baseline.name}; {args.repeats} timed runs each after one warm-up)")


if __name__ == "__main__":
    main()
