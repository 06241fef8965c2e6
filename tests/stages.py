"""``make test`` in stages, so that a reader can tell which part runs and how far it is.

Each stage is one pytest run on two workers (``--dist loadfile`` comes from pyproject.toml)
under a header that says what it checks, with pytest's own progress; a table at the end gives
each stage's outcome, its wall time and the CPU time its processes used (on a machine shared
with other work, wall time far above half the CPU time says the stage waited for the cores).
Every stage runs even when one fails, and the whole run fails if any stage did, or collected
no test at all (a folder that moved must not pass in silence). A skipped test is never counted
as a pass in silence either: pytest prints each skip's reason (``-rfEs``: failures and errors
too, as by default), and the table says how many of a stage's tests skipped, why, and calls a
stage whose every test skipped "skipped", not "passed" (the browser test without Chromium or
Playwright).

``python -m tests.stages`` runs every stage but the mutant runs (``make test``);
``python -m tests.stages mutants`` runs one (``make test STAGES=mutants``). The mutants
run in ``make mutants`` instead, on the whole spec, which CI runs: a mutant there must
fail its own rules too, so the narrower runs of this stage would repeat a part of it, at
a third of ``make test``'s CPU time. Before the first, the project's modules are compiled
to bytecode once: the stages start hundreds of Python processes that import them, and where
the environment sets ``PYTHONDONTWRITEBYTECODE`` (as some images do) each would compile them
from source again, a sixth of a short suite run's CPU time.
"""

from __future__ import annotations

import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.paths import REPO

#: pytest's workers in every stage
WORKERS = "2"
#: pytest's exit status when it collected nothing
NO_TESTS_COLLECTED = 5
BROWSER_TEST = "tests/spec/test_html_in_browser.py"
#: the project's own packages, which the stages' processes import (site-packages has its
#: bytecode from the install)
SOURCES = ("conformance", "reference_impl", "dask_impl", "tests")


@dataclass(frozen=True)
class Stage:
    """One pytest run: its name, what it checks (the header), and what it collects."""

    name: str
    checks: str
    paths: tuple[str, ...]
    ignore: tuple[str, ...] = ()
    #: does ``make test`` run it (a stage that does not runs when named)
    default: bool = True

    def pytest_args(self) -> list[str]:
        # -rfEs: pytest's short summary of failures and errors, and every skip's reason
        return ["-n", WORKERS, "-rfEs", *self.paths, *(f"--ignore={path}" for path in self.ignore)]


#: the stages with a folder (or file) of their own, in the order they run after the unit tests
_OWN_PATHS = (
    Stage(
        "differential",
        "the doctest engine, example by example against sphinx-build -b doctest",
        ("tests/sphinx_doctest",),
    ),
    Stage(
        "mutants",
        "the mutant suite: each one-bug variant of the reference must fail the rules it breaks "
        "(the variants all run, eight at a time, before pytest reports the first result)",
        ("tests/mutants/test_mutants.py",),
        default=False,
    ),
    Stage(
        "browser",
        "the browser test: the spec's HTML laid out by headless Chromium",
        (BROWSER_TEST,),
    ),
    Stage(
        "examples",
        "the spec's examples against the reference, ending with its conformance verdict",
        ("docs",),
    ),
)
#: the unit tests are everything under tests/ that no other stage runs, so that a new folder
#: of tests cannot fall out of make test
UNIT = Stage(
    "unit",
    "unit tests: the reference, the engines, the suite, the spec's pages, the project",
    ("tests",),
    ignore=tuple(p for stage in _OWN_PATHS for p in stage.paths if p.startswith("tests/")),
)
STAGES = (UNIT, *_OWN_PATHS)
#: what ``make test`` runs
DEFAULT = tuple(stage for stage in STAGES if stage.default)


@dataclass(frozen=True)
class Counts:
    """How many tests a stage ran and skipped, and why they skipped (reason -> tests)."""

    tests: int = 0
    skips: Counter[str] = field(default_factory=Counter)

    @property
    def skipped(self) -> int:
        return sum(self.skips.values())


def read_counts(junit_xml: Path) -> Counts:
    """The counts of pytest's JUnit XML report (none when pytest wrote none: it died early)."""
    try:
        root = ET.parse(junit_xml).getroot()
    except (OSError, ET.ParseError):
        return Counts()
    cases = list(root.iter("testcase"))
    skips = Counter(
        " ".join((skip.get("message") or "no reason given").split())
        for case in cases
        for skip in case.findall("skipped")
        if skip.get("type") != "pytest.xfail"  # an expected failure ran: it is no skip
    )
    return Counts(len(cases), skips)


@dataclass(frozen=True)
class Outcome:
    stage: Stage
    exit_status: int
    seconds: float
    cpu_seconds: float
    counts: Counts = field(default_factory=Counts)

    def verdict(self) -> str:
        if self.exit_status == NO_TESTS_COLLECTED:
            return "FAILED: collected no tests"
        if self.exit_status != 0:
            return f"FAILED: pytest's exit status {self.exit_status}"
        tests, skipped = self.counts.tests, self.counts.skipped
        if tests and skipped == tests:
            return f"skipped: all {tests} tests skipped"
        return f"passed, {skipped} of {tests} tests skipped" if skipped else "passed"


def _rule(title: str) -> None:
    width = max(shutil.get_terminal_size().columns, 40)
    print(f" {title} ".center(width, "#"), flush=True)


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{rest} s"


def _children_cpu() -> float:
    """CPU seconds of every finished process this one started, and of theirs."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _command(args: Sequence[str]) -> list[str]:
    return [sys.executable, "-m", *args]


def _shown(command: Sequence[str]) -> str:
    """``command`` as a reader can paste it: the interpreter relative to here where it can be."""
    interpreter = os.path.relpath(command[0])
    return shlex.join([command[0] if interpreter.startswith("../") else interpreter, *command[1:]])


def run_stage(stage: Stage, position: int, total: int) -> Outcome:
    """Run ``stage`` under its header; pytest prints its own progress and summary."""
    command = _command(["pytest", *stage.pytest_args()])
    print(flush=True)
    _rule(f"stage {position} of {total}: {stage.name}")
    print(stage.checks, flush=True)
    print(f"$ {_shown(command)}", flush=True)
    start, cpu_start = time.monotonic(), _children_cpu()
    with tempfile.TemporaryDirectory(prefix="forkwait-stage-") as folder:
        junit = Path(folder) / "results.xml"
        exit_status = subprocess.run([*command, f"--junitxml={junit}"], check=False).returncode
        counts = read_counts(junit)
    return Outcome(
        stage, exit_status, time.monotonic() - start, _children_cpu() - cpu_start, counts
    )


def skip_reasons(outcomes: Sequence[Outcome]) -> list[str]:
    """Each stage's skips, by reason (most first), as lines under the table."""
    lines = []
    for outcome in outcomes:
        for reason, tests in outcome.counts.skips.most_common():
            lines.append(f"  {outcome.stage.name}: {tests} skipped: {reason}")
    return lines


def summary(outcomes: Sequence[Outcome]) -> int:
    """Print each stage's outcome and times; the run's exit status (1 if any stage failed)."""
    print(flush=True)
    _rule("stages")
    rows = [
        (o.stage.name, _duration(o.seconds), _duration(o.cpu_seconds), o.verdict())
        for o in outcomes
    ]
    total = (sum(o.seconds for o in outcomes), sum(o.cpu_seconds for o in outcomes))
    rows += [("total", _duration(total[0]), _duration(total[1]), "")]
    width = max(len(row[0]) for row in rows)
    print(f"{'':<{width}}  {'wall time':>11}  {'CPU time':>11}")
    for name, wall, cpu, verdict in rows:
        print(f"{name:<{width}}  {wall:>11}  {cpu:>11}  {verdict}".rstrip())
    reasons = skip_reasons(outcomes)
    if reasons:
        print("skipped tests, by reason:", *reasons, sep="\n", flush=True)
    failed = [o.stage.name for o in outcomes if o.exit_status != 0]
    if not failed:
        skipped = [o.stage.name for o in outcomes if o.verdict().startswith("skipped")]
        if skipped:  # a stage none of whose tests ran did not pass: it says which
            print(
                f"no stage failed; {len(outcomes) - len(skipped)} of {len(outcomes)} passed, "
                f"skipped: {', '.join(skipped)} (every test of it skipped; the reasons above)",
                flush=True,
            )
        else:
            print(f"every stage passed ({len(outcomes)} of {len(outcomes)})", flush=True)
        return 0
    again = _shown(_command(["tests.stages", *failed]))
    print(f"{len(failed)} of {len(outcomes)} stages failed; run again with: {again}", flush=True)
    return 1


def run(stages: Sequence[Stage]) -> int:
    """Run every stage in turn, then the summary; the exit status fails if any stage did."""
    outcomes: list[Outcome] = []
    try:
        for position, stage in enumerate(stages, start=1):
            outcomes.append(run_stage(stage, position, len(stages)))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr, flush=True)
        return 130
    return summary(outcomes)


def compile_sources() -> None:
    """Write the bytecode of :data:`SOURCES` (into their ``__pycache__`` folders, which git
    ignores); an interpreter reads it even where it writes none of its own."""
    subprocess.run(
        _command(["compileall", "-q", *SOURCES]),
        check=True, stdout=subprocess.DEVNULL, cwd=REPO,
    )  # fmt: skip


def main(argv: Sequence[str]) -> int:
    by_name = {stage.name: stage for stage in STAGES}
    unknown = [name for name in argv if name not in by_name]
    if unknown:
        print(
            f"no such stage: {', '.join(unknown)} (the stages: {', '.join(by_name)})",
            file=sys.stderr,
        )
        return 2
    compile_sources()
    return run([by_name[name] for name in argv] if argv else DEFAULT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
