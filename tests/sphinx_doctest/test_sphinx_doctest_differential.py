"""``conformance.sphinx_doctest`` runs exactly what ``sphinx-build -b doctest`` runs.

Each fixture project under ``projects/`` is copied to a temporary folder and run
twice, with the same ``conf.py``:

- by ``python -m tests.sphinx_doctest.run_sphinx SRCDIR OUT`` (``sphinx-build -b
  doctest -E`` with the recorder installed), and
- by ``python -m pytest -p conformance.sphinx_doctest -p tests.sphinx_doctest.recorder
  -p no:cacheprovider SRCDIR --junitxml J.xml -q`` (plus ``--sphinx-confdir`` for a
  project whose ``conf.py`` is elsewhere), and
- by the same without ``-p conformance.sphinx_doctest``, through a ``conftest.py``
  in the project folder holding ``pytest_collect_file = sphinx_sybil(...).pytest()``
  (the second route: sybil's own collector).

Both record, through ``recorder.py``, every ``DocTestRunner.run`` (the DocTest and
its examples, flags, namespace) and every outcome report (what was expected, got
and printed), and every block appends a marker to an order log. Then, per document:

(a) the event sequences are equal, field by field (pid and item aside);
(b) the order logs are equal (and, without xdist, documents run in the same order);
(c) Sphinx's summary is the one written down below by reading the fixtures, so two
    equally empty runs cannot pass;
(d) every pytest item failed iff Sphinx recorded a failure for its test, matched
    through the JUnit properties ``sphinx_file``, ``sphinx_line``, ``sphinx_group``,
    ``sphinx_kind`` the plugin attaches and ``recorder_doc`` the recorder attaches.

A last test runs a multi-document project with ``-n 2 --dist loadfile`` and checks
(a) and (b) again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conformance.sphinx_doctest.snapshot import SNAPSHOT
from tests.sphinx_doctest.compare import (
    Event,
    OrderLog,
    Summary,
    check_items,
    compare_events,
    compare_order,
    compare_run_order,
    events_by_document,
    iter_documents,
    read_events,
    read_junit,
    read_order,
    read_summary,
    sphinx_run,
)

REPO = Path(__file__).resolve().parents[2]
PROJECTS = Path(__file__).resolve().parent / "projects"
PLUGIN = "conformance.sphinx_doctest"
RECORDER = "tests.sphinx_doctest.recorder"
TIMEOUT = 300


@dataclass(frozen=True)
class Project:
    """A fixture project and what ``sphinx-build -b doctest`` makes of it."""

    name: str
    summary: Summary  # written down by reading the fixtures' documents
    source: str = ""  # the source dir, relative to the project folder
    confdir: str | None = None  # the dir of conf.py, when it is not the source dir
    excluded: tuple[str, ...] = ()  # folders of exclude_patterns
    silent: frozenset[str] = frozenset({"index"})  # documents Sphinx runs nothing for


PROJECT_LIST = [
    Project(
        "core",
        Summary(tests=108, failures=23, setup_failures=3, cleanup_failures=3),
        excluded=("includes",),
        silent=frozenset({"index", "groups_star_only"}),
    ),
    Project("bare", Summary(tests=13, failures=3, setup_failures=0, cleanup_failures=0)),
    Project(
        "separate_conf",
        Summary(tests=12, failures=2, setup_failures=0, cleanup_failures=0),
        source="src",
        confdir="conf",
    ),
    Project(
        "fail_fast",
        Summary(tests=6, failures=2, setup_failures=0, cleanup_failures=0, fail_fast_header=True),
        silent=frozenset({"index", "c_not_reached"}),
    ),
]
BY_NAME = {project.name: project for project in PROJECT_LIST}
XDIST_PROJECT = "bare"


@dataclass
class Run:
    """What one side left behind."""

    command: list[str]
    returncode: int
    output: str
    events: list[Event]
    order: OrderLog
    workdir: Path
    srcdir: Path
    extra: dict[str, Path] = field(default_factory=dict)

    def describe(self) -> str:
        tail = "\n".join(self.output.splitlines()[-60:])
        return f"$ {' '.join(self.command)}\nexit status {self.returncode}\n{tail}"


class Runner:
    """Copies each project once and runs each side once per module (they are slow)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.runs: dict[tuple[str, ...], Run] = {}
        #: route "snapshot": did the run use the snapshot the run before it kept?
        self.from_snapshot: dict[tuple[str, ...], bool] = {}

    def copy(self, project: Project) -> Path:
        target = self.tmp / "projects" / project.name
        if not target.exists():
            shutil.copytree(
                PROJECTS / project.name, target, ignore=shutil.ignore_patterns("__pycache__")
            )
        return target

    def _run(self, key: tuple[str, ...], project: Project, command: list[str]) -> Run:
        workdir = self.tmp / "runs" / "-".join(key)
        workdir.mkdir(parents=True)
        srcdir = self.copy(project) / project.source
        events, order = workdir / "events.jsonl", workdir / "order.log"
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "SPHINX_DOCTEST_"))
        }
        env.update(
            SPHINX_DOCTEST_EVENTS=str(events),
            SPHINX_DOCTEST_ORDER=str(order),
            SPHINX_DOCTEST_SRCDIR=str(srcdir),
            PYTHONDONTWRITEBYTECODE="1",
        )
        command = [
            part.format(srcdir=srcdir, workdir=workdir, project=srcdir.parent) for part in command
        ]
        done = subprocess.run(
            command,
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=TIMEOUT,
        )
        run = Run(
            command,
            done.returncode,
            done.stdout + done.stderr,
            read_events(events),
            read_order(order),
            workdir,
            srcdir,
        )
        self.runs[key] = run
        return run

    def sphinx(self, project: Project) -> Run:
        key = (project.name, "sphinx")
        if key in self.runs:
            return self.runs[key]
        confdir = ["-c", str(self.copy(project) / project.confdir)] if project.confdir else []
        command = [sys.executable, "-m", "tests.sphinx_doctest.run_sphinx"]
        run = self._run(key, project, [*command, "{srcdir}", "{workdir}/out", *confdir])
        run.extra["output.txt"] = run.workdir / "out" / "output.txt"
        return run

    def plugin(self, project: Project, *extra: str, route: str = "plugin") -> Run:
        key = (project.name, route, *extra)
        run = self.runs.get(key)
        if run is None:
            if route == "plugin":
                run = self._run(key, project, [*self._pytest("-p", PLUGIN, project), *extra])
            elif route == "snapshot":
                run = self._from_snapshot(key, project, extra)
            else:
                conftest = self.copy(project) / "conftest.py"
                conftest.write_text(conftest_text(project), encoding="utf-8")
                try:
                    command = [*self._pytest("--rootdir", "{project}", project), *extra]
                    run = self._run(key, project, command)
                finally:
                    conftest.unlink()
            run.extra["junit"] = run.workdir / "junit.xml"
        # 0: all passed, 1: some failed; anything else (no plugin, usage error, crash...)
        # leaves nothing to compare
        if run.returncode not in (0, 1) or not run.extra["junit"].exists():
            pytest.fail(f"the plugin run did not complete:\n{run.describe()}", pytrace=False)
        return run

    def _from_snapshot(self, key: tuple[str, ...], project: Project, extra: tuple[str, ...]) -> Run:
        """The plugin route run twice with one cache folder: the first run reads the
        project with Sphinx and keeps its snapshot, the second (returned) starts no
        Sphinx - unless the project cannot have one, which the first run then says."""
        cache = self.tmp / "snapshots" / "-".join(key)
        command = [*self._pytest("-p", PLUGIN, project), "--sphinx-cache-dir", str(cache)]
        filling = self._run((*key, "filling"), project, [*command, *extra])
        kept = list(cache.glob(f"*/{SNAPSHOT}"))
        said = ("WARNING", "NotKept")  # Sphinx's warnings, or why no snapshot was kept
        assert kept or any(w in filling.output for w in said), filling.describe()
        before = [(p.stat().st_ino, p.stat().st_mtime_ns) for p in kept]
        run = self._run(key, project, [*command, *extra])
        # read again by Sphinx, the snapshot would have been written again
        after = [(p.stat().st_ino, p.stat().st_mtime_ns) for p in kept if p.exists()]
        self.from_snapshot[key] = bool(kept) and before == after
        return run

    def _pytest(self, option: str, value: str, project: Project) -> list[str]:
        confdir = (
            ["--sphinx-confdir", str(self.copy(project) / project.confdir)]
            if project.confdir and option == "-p"
            else []
        )
        return [
            sys.executable, "-m", "pytest", option, value, "-p", RECORDER,
            "-p", "no:cacheprovider", "{srcdir}", *confdir,
            "--junitxml", "{workdir}/junit.xml", "-q",
        ]  # fmt: skip


def conftest_text(project: Project) -> str:
    """A third party's conftest.py (in the project folder) running the docs through sybil."""
    source = repr(project.source or ".")
    confdir = f", confdir={project.confdir!r}" if project.confdir else ""
    return (
        "from conformance.sphinx_doctest import sphinx_sybil\n\n"
        f"pytest_collect_file = sphinx_sybil({source}{confdir}).pytest()\n"
    )


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Runner:
    return Runner(tmp_path_factory.mktemp("sphinx_doctest"))


def report(problems: list[str], *runs: Run) -> None:
    if problems:
        commands = "\n".join(f"$ {' '.join(run.command)}" for run in runs)
        pytest.fail("\n\n".join([*problems, commands]), pytrace=False)


project_names = pytest.mark.parametrize("name", [p.name for p in PROJECT_LIST])
#: how the plugin side collects: ``-p conformance.sphinx_doctest``, or a conftest
#: or ``-p`` from a snapshot of Sphinx's read, kept by an earlier run (no Sphinx started)
routes = pytest.mark.parametrize("route", ["plugin", "conftest", "snapshot"])


@project_names
def test_sphinx_runs_the_fixtures_as_written(name: str, runner: Runner) -> None:
    """(c) Sphinx's summary is the hand-written one; every document with tests ran."""
    project = BY_NAME[name]
    run = runner.sphinx(project)
    output_txt = run.extra["output.txt"]
    assert output_txt.exists(), run.describe()
    summary = read_summary(output_txt)
    assert summary == project.summary, run.describe()
    failed = summary.failures or summary.setup_failures or summary.cleanup_failures
    assert run.returncode == (1 if failed else 0), run.describe()
    expected = set(iter_documents(run.srcdir, project.excluded)) - project.silent
    assert set(events_by_document(run.events)) == expected
    assert {doc for doc, labels in run.order.by_doc.items() if labels} == expected


@routes
@project_names
def test_events_match_per_document(name: str, route: str, runner: Runner) -> None:
    """(a) the same DocTests, examples, flags, outcomes and printed reports."""
    project = BY_NAME[name]
    sphinx, plugin = runner.sphinx(project), runner.plugin(project, route=route)
    report(compare_events(sphinx.events, plugin.events), sphinx, plugin)


@routes
@project_names
def test_order_logs_match(name: str, route: str, runner: Runner) -> None:
    """(b) global setup, setups, tests, cleanups and global cleanup in the same order."""
    project = BY_NAME[name]
    sphinx, plugin = runner.sphinx(project), runner.plugin(project, route=route)
    problems = compare_order(sphinx.order, plugin.order)
    report(problems + compare_run_order(sphinx.events, plugin.events), sphinx, plugin)


@routes
@project_names
def test_items_agree_with_sphinx(name: str, route: str, runner: Runner) -> None:
    """(d) one item per test Sphinx ran, failed iff Sphinx's test failed."""
    project = BY_NAME[name]
    sphinx, plugin = runner.sphinx(project), runner.plugin(project, route=route)
    items = read_junit(plugin.extra["junit"])
    report(check_items(sphinx_run(sphinx.events), items), sphinx, plugin)


def test_the_snapshot_route_starts_no_sphinx(runner: Runner) -> None:
    """The snapshot route is what it claims: a project read without warnings keeps a
    snapshot, and the next run uses it instead of reading the project again."""
    used = {name: runner.plugin(BY_NAME[name], route="snapshot") for name in BY_NAME}
    assert used
    from_snapshot = {name: runner.from_snapshot[(name, "snapshot")] for name in used}
    warned = {name for name, run in used.items() if "WARNING" in run.output}
    assert {name for name, hit in from_snapshot.items() if not hit} <= warned, from_snapshot
    assert any(from_snapshot.values()), from_snapshot


@routes
def test_xdist_two_workers_match_per_document(route: str, runner: Runner) -> None:
    """(a) and (b) under pytest-xdist: each document is run whole by one worker."""
    project = BY_NAME[XDIST_PROJECT]
    sphinx = runner.sphinx(project)
    plugin = runner.plugin(project, "-n", "2", "--dist", "loadfile", route=route)
    problems = compare_events(sphinx.events, plugin.events)
    problems += compare_order(sphinx.order, plugin.order)
    report(problems, sphinx, plugin)
