"""``sphinx-build -b doctest`` against ``pytest -p conformance.sphinx_doctest``, same project.

A generated Sphinx project (by default 20 documents x 100 ``testcode``/``testoutput``
pairs, one ``testsetup`` per document) is run whole, as separate processes, by each
contender in turn, several times, and the min and median wall times are printed
with their ratio to ``sphinx-build``'s. Every contender must pass every test (exit
status 0); one that does not is reported and left out of the table.

``--spec`` runs the forkwait spec itself (docs/ with conf/conf.py) instead.
``--field sybil`` runs the ``>>>``-only project of sybil_field.py instead, where
stock sybil collects the same items as the engine: the engine through both routes
(``-p`` and ``sphinx_sybil``), fresh and cached, against stock sybil in the same
rounds, each judged against its target (``sybil_field.TARGETS``).

Besides ``sphinx-build -E`` (the baseline) and ``sphinx-build`` reusing its
environment, the engine fresh and with its Sphinx environment cached (through
``-p conformance.sphinx_doctest``, and through sybil: a conftest calling
``sphinx_sybil``), and the conformance CLI with its isolation worker, it times
two floors. The cached plugin with the least per-item protocol a runner that
gives each test its own item can have (minimal_protocol.py: a bound, not a
runner). And pytest alone collecting and running one bare custom item
(``runtest`` does nothing) per test of the project: pytest's own per-item cost,
which no one-item-per-test runner using pytest's protocol can go below; and the
same in one pytest-xdist worker, the floor of the CLI.

What a user pays: the whole field runs twice, with bytecode cached and with
``PYTHONDONTWRITEBYTECODE=1`` (which some machines set; pytest then rewrites
the assertions of every plugin module on every run). Other plugins' costs are
kept out: the pytest rows run with ``-p no:hypothesispytest`` (hypothesis's
plugin, installed by the ``test`` extra, imports hypothesis at the end of
every session). Wall times suffer from neighbours on a shared machine, so the
CPU time of each process (user + system, from ``getrusage``) is shown too.

Run: ``python benchmarks/doctest_vs_sphinx.py [--spec | --field sybil] [--documents N]
[--pairs N] [--repeats N]``
(from the repository root or from ``benchmarks/``). To add a contender, append a
``Contender`` to ``contenders()``: it gets the source dir and a fresh output dir.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sybil_field import STOCK, make_doctest_project, ratio_table, sphinx_loaded, stock_sybil

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
    cpu: list[float] = field(default_factory=list)
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


#: other plugins' costs are not the engine's (see above)
NO_OTHERS = ["-p", "no:hypothesispytest", "-p", "no:cacheprovider"]


def pytest_plugin(project: Project, out: Path) -> list[str]:
    """A fresh run: the Sphinx environment is cached in a new folder each time."""
    cache = out / "sphinx-cache"
    conf = ["--sphinx-confdir", str(project.confdir), "--sphinx-cache-dir", str(cache)]
    plugin = ["-p", "conformance.sphinx_doctest"]
    return [sys.executable, "-m", "pytest", *plugin, *NO_OTHERS, *conf, str(project.source), "-q"]


def pytest_plugin_cached(project: Project, out: Path) -> list[str]:
    """The plugin reusing the Sphinx environment of its previous run (a second run)."""
    command = pytest_plugin(project, out)
    command[command.index("--sphinx-cache-dir") + 1] = str(out.parent / "sphinx-cache")
    return command


def pytest_plugin_bound(project: Project, out: Path) -> list[str]:
    """The cached plugin with the least per-item protocol (minimal_protocol.py): a bound
    on what any one-item-per-test runner can reach here, not a runner to use."""
    return [*pytest_plugin_cached(project, out), "-p", "benchmarks.minimal_protocol"]


SYBIL_CONFTEST = """\
from conformance.sphinx_doctest import sphinx_sybil

pytest_collect_file = sphinx_sybil({source!r}, confdir={confdir!r}).pytest()
"""


def pytest_sybil(project: Project, out: Path) -> list[str]:
    """A third party's way: its conftest (beside the source folder) calls ``sphinx_sybil``.

    Only for a generated project, whose folder holds nothing else pytest would read.
    """
    folder = project.source.parent
    text = SYBIL_CONFTEST.format(source=str(project.source), confdir=str(project.confdir))
    (folder / "conftest.py").write_text(text, encoding="utf-8")
    cache = ["-o", f"cache_dir={out / 'pytest-cache'}"]  # a fresh Sphinx environment
    return [
        sys.executable, "-m", "pytest", "-p", "no:hypothesispytest", *cache,
        "--rootdir", str(folder), str(project.source), "-q",
    ]  # fmt: skip


def pytest_sybil_cached(project: Project, out: Path) -> list[str]:
    """The same conftest, reusing the Sphinx environment of its previous run."""
    command = pytest_sybil(project, out)
    command[command.index("-o") + 1] = f"cache_dir={out.parent / 'pytest-cache-kept'}"
    return command


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
    return [sys.executable, "-m", "pytest", *NO_OTHERS, str(floor), "-q"]


def pytest_floor_worker(project: Project, out: Path) -> list[str]:
    """The same bare items in one pytest-xdist worker: the floor of the conformance CLI,
    which runs its examples in such a worker (a second process, every report sent back)."""
    return [*pytest_floor(project, out), "-n", "1"]


def sphinx_build_cached(project: Project, out: Path) -> list[str]:
    """sphinx-build reusing its environment (no -E): it reads no document, only runs."""
    command = sphinx_build(project, out.parent / "sphinx-kept-out")
    command.remove("-E")
    return command


def contenders(spec: bool = False) -> list[Contender]:
    """The first is the baseline of the ratios (the spec has no third-party conftest)."""
    field_ = [
        Contender("sphinx-build -b doctest -E", sphinx_build),
        Contender("  same, environment cached (no -E)", sphinx_build_cached),
        Contender("pytest -p conformance.sphinx_doctest", pytest_plugin),
        Contender("  same, Sphinx environment cached", pytest_plugin_cached),
        Contender("  same, least per-item protocol (a bound)", pytest_plugin_bound),
        Contender("pytest, conftest with sphinx_sybil", pytest_sybil),
        Contender("forkwait-conformance (isolation worker)", conformance_cli),
        Contender("pytest alone: a bare item per test", pytest_floor),
        Contender("  same, in one pytest-xdist worker (-n 1)", pytest_floor_worker),
    ]
    return [c for c in field_ if not (spec and c.command is pytest_sybil)]


def sybil_contenders() -> list[Contender]:
    """The ``>>>``-only field (sybil_field.py): stock sybil and the engine, same items."""
    return [
        Contender("sphinx-build -b doctest -E", sphinx_build),
        Contender(STOCK, lambda project, out: stock_sybil(project.source, NO_OTHERS)),
        Contender("engine -p, fresh", pytest_plugin),
        Contender("engine -p, Sphinx environment cached", pytest_plugin_cached),
        Contender("engine sphinx_sybil, fresh", pytest_sybil),
        Contender("engine sphinx_sybil, cached", pytest_sybil_cached),
        Contender(
            "  bound: stock sybil + Sphinx, fresh",
            lambda project, out: sphinx_loaded(project.source, NO_OTHERS, fresh=True),
        ),
        Contender(
            "  bound: stock sybil + Sphinx, kept",
            lambda project, out: sphinx_loaded(project.source, NO_OTHERS, fresh=False),
        ),
    ]


#: the two settings a user may run with: bytecode cached, and not written at all
SETTINGS = {
    "bytecode cached": {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONDONTWRITEBYTECODE=1": {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
}
#: the speed targets: contender -> at most this ratio to the baseline (``sphinx-build -E``,
#: the first row)
TARGETS = {
    "pytest -p conformance.sphinx_doctest": 1.5,
    "  same, Sphinx environment cached": 1.1,
    "forkwait-conformance (isolation worker)": 2.0,
}


def run_once(
    contender: Contender, project: Project, scratch: Path, env: dict[str, str]
) -> tuple[float, float] | None:
    """(wall seconds, CPU seconds of the process and its children), or None if it failed."""
    out = scratch / "out"
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        contender.command(project, out),
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
        contender.failure = f"exit status {done.returncode}\n{tail}"
        return None
    return elapsed, cpu


def measure(
    field_: list[Contender], project: Project, scratch: Path, repeats: int, env: dict[str, str]
) -> None:
    for contender in field_:  # warm-up: imports, .pyc files, the cached environments
        run_once(contender, project, scratch, env)
    for _ in range(repeats):  # interleaved, so a noisy neighbour hits all alike
        for contender in field_:
            if contender.failure is None:
                timed = run_once(contender, project, scratch, env)
                if timed is not None:
                    contender.times.append(timed[0])
                    contender.cpu.append(timed[1])


def table(field_: list[Contender]) -> list[str]:
    """Wall (min, median) and CPU (min) seconds, each with its ratio to the baseline."""
    base = field_[0]
    lines = [f"{'contender':42} {'wall min':>8} {'median':>7} {'cpu min':>8}   x wall   x cpu"]
    for contender in field_:
        if contender.failure is not None or not contender.times:
            lines.append(f"{contender.name:42} failed: {contender.failure}")
            continue
        low, mid, cpu = min(contender.times), statistics.median(contender.times), min(contender.cpu)
        ratios = f"{low / min(base.times):8.2f} {cpu / min(base.cpu):7.2f}" if base.times else ""
        lines.append(f"{contender.name:42} {low:8.2f} {mid:7.2f} {cpu:8.2f} {ratios}")
        target = TARGETS.get(contender.name)
        if target is not None and base.times:
            got = min(low / min(base.times), cpu / min(base.cpu))
            verdict = "met" if got <= target else "NOT met"
            lines.append(f"{'':42} target <= {target}x of the baseline: {verdict}")
    return lines


def _project(args: argparse.Namespace, scratch: Path) -> tuple[Project, str]:
    """The project the field runs, and how to name it."""
    if args.spec:
        project = Project(REPO / "docs", REPO / "conf")
        return project, "the forkwait spec (docs/, conf/conf.py), against the reference"
    if args.field:
        source = make_doctest_project(scratch / "project", args.documents, args.pairs)
        blocks = f"{args.documents} documents x {args.pairs} one-example doctest blocks"
        return Project(source, source), blocks
    source = make_project(scratch / "project", args.documents, args.pairs)
    tests = args.documents * (args.pairs + 1)
    return Project(
        source, source
    ), f"{args.documents} documents x {args.pairs} pairs ({tests} tests)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=20)
    parser.add_argument(
        "--pairs",
        type=int,
        default=100,
        help="tests a document: testcode/testoutput pairs (doctest blocks with --field sybil)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per contender")
    parser.add_argument(
        "--spec",
        action="store_true",
        help="run the forkwait spec itself instead of a generated project",
    )
    parser.add_argument(
        "--field",
        choices=["sybil"],
        help="sybil: the >>>-only project, the engine against stock sybil (same items)",
    )
    parser.add_argument("--setting", choices=sorted(SETTINGS), help="only this setting")
    args = parser.parse_args()
    for name, env in SETTINGS.items():
        if args.setting and name != args.setting:
            continue
        field_ = sybil_contenders() if args.field else contenders(args.spec)
        with tempfile.TemporaryDirectory(prefix="doctest-bench-") as tmp:
            project, about = _project(args, Path(tmp))
            measure(field_, project, Path(tmp), args.repeats, env)
        print(f"\n{about}; {name}; {args.repeats} timed runs each after one warm-up")
        lines = ratio_table(field_, field_[0].name) if args.field else table(field_)
        print("\n".join(lines))
        for contender in field_:
            if args.field and contender.failure is not None:
                print(f"{contender.name} failed: {contender.failure}")
    if args.field:
        print("\n(x: CPU ratio within each round, median (range); targets judged on the median)")
    else:
        print(
            "\n(x: ratio to the first row; a target is met if the wall or the CPU ratio meets it)"
        )


if __name__ == "__main__":
    main()
