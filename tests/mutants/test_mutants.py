"""The mutant suite: every MUST requirement is failed by a mutant meant to break it.

Each mutant module of tests/mutants is an implementation that differs from the
reference in one deliberate, realistic way, and declares what that costs it:
``CONTRACT = contract(...)`` (tests/mutants/_contract.py) names the rules its
mutation breaks and every other rule it fails, each with the reason. This
runner reads those declarations (tests/mutants/_catalogue.py), runs each
mutant through ``forkwait-conformance`` in a process of its own, as a third
party would run it (tests/implementation_runs.py), and holds it to its contract.
Every MUST of the spec must be broken by at least one mutant. The mutation matrix
(requirement x mutants that fail it) is printed in the terminal summary.

Two scopes, one catalogue. ``make test STAGES=mutants`` runs each mutant on the
rules it breaks (``-k``): the run fails and each of those rules fails, so every
MUST is killed. ``make mutants`` (CI runs it; ``FORKWAIT_MUTANTS=whole-spec``) runs
each on the whole spec, probes and schedules included: a mutant then fails
exactly its rules and its extras (and may fail its ``maybe`` rules), which
shows the probes aim where the spec's coverage page says they do. The rules
a mutant breaks must fail every run; where a whole-spec run disagrees with the
contract on any other rule, the mutant runs twice more, and a result that comes
and goes between those runs is timing-dependent: listed at the end, for its
author to declare as a ``maybe`` with the reason, not failed. A mutant
that breaks only SHOULDs runs with ``--strict``, so that its run fails as a
MUST's would. The terminal summary says how long the runs took.
"""

from __future__ import annotations

import operator
import os
import sys
import time
from functools import partial, reduce
from pathlib import Path

import pytest

from conformance.catalog.files import spec_dir
from conformance.catalog.requirements import requirements_in
from tests.implementation_runs import (
    EXAMPLE_TIMEOUT,
    INDEPENDENT_ARGS,
    PARALLEL_RUNS,
    Run,
    run_all,
    run_suite,
)
from tests.mutants._catalogue import base_of, contracts, describe
from tests.mutants._contract import Contract

# every suite run happens in the first test's setup: more than the default 120 s
pytestmark = pytest.mark.timeout(1800)

#: each mutant on the whole spec (make mutants), or on the requirements it breaks (make test)
WHOLE_SPEC = os.environ.get("FORKWAIT_MUTANTS", "") == "whole-spec"

#: mutant module -> the contract it declares
MUTANTS: dict[str, Contract] = contracts()


def expected(mutant: Contract) -> frozenset[str]:
    """What a run of ``mutant`` must fail: on the whole spec, its rules and its extras; on
    the rules it breaks, which are all that run otherwise, those rules."""
    return mutant.fails if WHOLE_SPEC else mutant.breaks


def selection(mutant: Contract) -> list[str]:
    """pytest's -k for the rules ``mutant`` breaks: ``ID[`` begins each of their examples'
    names and no other (``FUTURE-THEN-1[`` is not in ``FUTURE-THEN-10[2]``)."""
    return ["-k", " or ".join(f"{rid}[" for rid in sorted(mutant.breaks))]


def run_mutant(name: str, report: Path) -> Run:
    mutant = MUTANTS[name]
    args = ["--strict"] if mutant.strict else []
    if base_of(name) != "reference":  # an independent implementation, under its own deadline
        args += list(INDEPENDENT_ARGS)
    if not WHOLE_SPEC:
        args += selection(mutant)
    return run_suite(f"tests.mutants.{name}:adapter", report, args)


#: filled by the fixture, read by the terminal summary (tests/conftest.py)
runs: dict[str, Run] = {}
wall_time: list[float] = []


#: the faults the suite must isolate: (mutant, requirement, kind, what its message says)
FAULTS = [
    (
        "wedges_in_c",
        "WAIT-FROM-PYTHON-1",
        "hang",
        f"hung past --example-timeout ({EXAMPLE_TIMEOUT} s)",
    ),
    ("wedges_in_c", "WAIT-FROM-PYTHON-1", "hang", "in wait\n"),  # the stack it hung in
    (
        "crashes_on_lambda",
        "FORK-CALLABLES-1",
        "crash",
        "ended the executor process with os._exit(70)",
    ),
]


def needed(items: list[pytest.Item]) -> set[str]:
    """The mutants whose runs the selected tests read: one mutant's test needs its run, the
    fault test its faults' mutants, a test over every run (the matrix of kills) all of them."""
    names: set[str] = set()
    for item in items:
        if not isinstance(item, pytest.Function) or "mutant_runs" not in item.fixturenames:
            continue
        if item.originalname == "test_the_suite_catches_the_mutant":
            names.add(str(item.callspec.params["name"]))
        elif item.originalname == "test_a_hang_and_a_crash_fail_only_their_examples":
            names |= {name for name, *_ in FAULTS}
        else:
            return set(MUTANTS)
    return names


@pytest.fixture(scope="module")
def mutant_runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Run]:
    """The runs the selected tests need (``-k drops_kwargs`` runs one mutant, the whole file
    every one); the slowest start first, the rest fill in around them."""
    folder = tmp_path_factory.mktemp("mutants")
    order = sorted(needed(request.session.items), key=lambda n: (not MUTANTS[n].slow, n))
    start = time.monotonic()
    runs.update(
        run_all({name: partial(run_mutant, name, folder / f"{name}.json") for name in order})
    )
    wall_time.append(time.monotonic() - start)
    return runs


#: runs of a mutant again, where its whole-spec run disagreed with its contract: a rule
#: whose verdict comes and goes between runs of the same mutant is timing-dependent
RERUNS = 2
#: (mutant, rule, what happened) of each timing-dependent result its contract does not
#: declare: printed at the end of the run for the author to declare as a ``maybe``
undeclared_timing: list[tuple[str, str, str]] = []


def timing_dependent(
    name: str, missing: set[str], unexpected: set[str], folder: Path
) -> tuple[set[str], set[str]]:
    """Of a whole-spec run's disagreements with the contract, the ones that reproduce: an
    extra the run passed must pass :data:`RERUNS` more runs too, a rule it failed
    unexpectedly must fail each of them; the rest came and went between runs of the same
    mutant, and are noted in :data:`undeclared_timing` rather than failing the contract."""
    checked = missing | unexpected
    if not checked:
        return missing, unexpected
    again = {
        f"{name}-{n}": partial(run_mutant, name, folder / f"{name}-{n}.json") for n in range(RERUNS)
    }
    reruns = [run.failed() for run in run_all(again).values()]
    failed_again = checked & set[str]().union(*reruns)
    passed_again = checked - reduce(operator.and_, reruns)
    for rid in sorted(missing & failed_again):
        undeclared_timing.append((name, rid, "passed once, failed in a rerun"))
    for rid in sorted(unexpected & passed_again):
        undeclared_timing.append((name, rid, "failed once, passed in a rerun"))
    return missing - failed_again, unexpected - passed_again


class _Rerun:
    """A rerun as timing_dependent reads it: the rules it failed."""

    def __init__(self, failed: set[str]) -> None:
        self._failed = failed

    def failed(self) -> set[str]:
        return self._failed


@pytest.mark.parametrize(
    ("reruns", "kept", "noted"),
    [
        # both reruns agree with the first run: the disagreements are the contract's to fix
        ([{"U-1"}, {"U-1"}], ({"M-1"}, {"U-1"}), []),
        # the unexpected rule passed a rerun and the missing extra failed one: both timing
        (
            [{"M-1"}, set()],
            (set(), set()),
            ["M-1 passed once, failed in a rerun", "U-1 failed once, passed in a rerun"],
        ),
        # one rerun reproducing a result and the other not: it still came and went
        ([{"U-1", "M-1"}, {"U-1"}], (set(), {"U-1"}), ["M-1 passed once, failed in a rerun"]),
    ],
)
def test_a_disagreement_reruns_do_not_reproduce_is_noted_not_failed(
    reruns: list[set[str]],
    kept: tuple[set[str], set[str]],
    noted: list[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    results = iter(reruns)
    monkeypatch.setattr(sys.modules[__name__], "run_mutant", lambda *_: _Rerun(next(results)))
    monkeypatch.setattr(sys.modules[__name__], "undeclared_timing", [])
    # the whole-spec run failed U-1, which the contract does not name, and passed M-1, an
    # extra the contract declares
    assert timing_dependent("m", {"M-1"}, {"U-1"}, tmp_path) == kept
    assert [f"{rid} {what}" for _, rid, what in undeclared_timing] == noted


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_suite_catches_the_mutant(
    name: str, mutant_runs: dict[str, Run], tmp_path: Path
) -> None:
    run = mutant_runs[name]
    mutant = MUTANTS[name]
    if mutant.survives:  # the suite's known blind spot: it must still pass, or it is caught
        caught = f"the suite now catches the survivor {name}: drop its survives= and declare"
        caught_rules = run.failed() - set(mutant.maybe)  # maybe: what timing may fail
        assert not caught_rules, f"{caught} what it fails, {sorted(caught_rules)}"
        return
    if mutant.chance:  # caught in some runs only: never anything but what it may fail
        stray = run.failed() - expected(mutant) - set(mutant.maybe)
        assert not stray, f"{name}, caught by chance, failed {sorted(stray)} besides"
        return
    assert run.returncode == 1, run.output[-3000:]
    failed = run.failed()
    must_fail = expected(mutant)
    # the rules it breaks must fail every run; an extra or an unexpected rule whose
    # result a rerun does not reproduce depends on timing
    missing = must_fail - failed
    unexpected = failed - must_fail - set(mutant.maybe)
    if WHOLE_SPEC:
        extras_missing, unexpected = timing_dependent(
            name, set(missing - mutant.breaks), unexpected, tmp_path
        )
        missing = (missing & mutant.breaks) | extras_missing
    disagreements = missing | unexpected
    assert not disagreements, (
        f"{name} failed {sorted(failed)}; expected {sorted(must_fail)}: "
        f"missing {sorted(missing)}, unexpected {sorted(unexpected)}"
    )
    # the run went on to the end: every requirement it ran has a result
    assert not run.report.interrupted, run.output[-3000:]
    ran = set(requirements_in(spec_dir())) if WHOLE_SPEC else mutant.breaks
    assert run.not_run() == set(requirements_in(spec_dir())) - ran


def test_the_runs_kill_every_must(mutant_runs: dict[str, Run]) -> None:
    musts = {rid for rid, r in requirements_in(spec_dir()).items() if r.level == "MUST"}
    killed = {
        rid for name, run in mutant_runs.items() for rid in run.failed() & MUTANTS[name].breaks
    }
    assert sorted(musts - killed) == [], "MUSTs no mutant meant to break them fails"


def test_a_hang_and_a_crash_fail_only_their_examples(mutant_runs: dict[str, Run]) -> None:
    for name, requirement, kind, expected_message in FAULTS:
        run = mutant_runs[name]
        record = run.report.by_id()[requirement]
        assert expected_message in record.message, record.message
        # every result that failed (the example, and a probe that meets the same fault) did so
        # by that fault
        kinds = [e.kind for e in record.results if e.outcome == "failed"]
        assert kinds, record.message
        assert set(kinds) == {kind}, kinds
        # the run went on to the end, and nothing else failed because of the fault
        assert not run.report.interrupted, f"{name}: the run did not go on after the fault"
        mutant = MUTANTS[name]
        assert not expected(mutant) & run.not_run(), f"{name}: requirements with no result"
        assert expected(mutant) <= run.failed() <= mutant.fails | set(mutant.maybe)


def mutation_matrix() -> list[str]:
    """Requirement x mutants that fail it, MUSTs killed, and the catalogue of mutants."""
    if not runs:
        return []
    requirements = requirements_in(spec_dir())
    lines = [f"{'requirement':<27} {'level':<6} mutants that fail it (* = meant to break it)"]
    for rid, requirement in requirements.items():
        killers = [
            name + ("*" if rid in MUTANTS[name].breaks else "")
            for name, run in sorted(runs.items())
            if rid in run.failed()
        ]
        lines.append(f"{rid:<27} {requirement.level:<6} {', '.join(killers) or '-'}")
    musts = [rid for rid, r in requirements.items() if r.level == "MUST"]
    killed = [
        rid
        for rid in musts
        if any(rid in run.failed() and rid in MUTANTS[n].breaks for n, run in runs.items())
    ]
    exact = sum(
        run.failed() == (set() if MUTANTS[name].survives else expected(MUTANTS[name]))
        for name, run in runs.items()
        if not MUTANTS[name].chance
    )
    share = 100 * len(killed) / len(musts) if musts else 100.0
    alive = sorted(set(musts) - set(killed))
    lines += [
        "",
        f"MUSTs killed: {len(killed)}/{len(musts)} ({share:.0f}%)"
        + (f"; alive: {', '.join(alive)}" if alive and len(runs) == len(MUTANTS) else ""),
        f"mutants failing exactly their expected requirements: {exact}/{len(runs)}"
        + ("" if WHOLE_SPEC else " (each ran the rules it breaks: make mutants, the whole spec)"),
        f"mutant suite runs: {len(runs)} of {len(MUTANTS)} mutants in {sum(wall_time):.0f} s wall "
        f"({PARALLEL_RUNS} at a time; {sum(r.seconds for r in runs.values()):.0f} s in all)",
        "",
        "mutants:",
    ]
    width = max(len(name) for name in runs)
    lines += [f"  {name:<{width}}  {describe(name)}" for name in sorted(runs)]
    survivors = sorted(name for name in runs if MUTANTS[name].survives)
    if survivors:
        lines += [
            "",
            f"survivors (the suite passes them; what no probe drives yet): {len(survivors)}",
            *(f"  {name}: {MUTANTS[name].survives}" for name in survivors),
        ]
    by_chance = sorted(name for name in runs if MUTANTS[name].chance)
    if by_chance:
        lines += [
            "",
            f"caught by chance (in some runs only; the race no probe forces): {len(by_chance)}",
            *(
                f"  {name}: {'caught' if runs[name].failed() else 'passed'} this run; "
                f"{MUTANTS[name].chance}"
                for name in by_chance
            ),
        ]
    if undeclared_timing:
        lines += [
            "",
            "timing-dependent results no contract declares (each came and went between runs of "
            "the same mutant on the whole spec; declare it in the mutant's CONTRACT as a "
            "maybe, with the reason):",
            *(f"  {name}: {rid} {what}" for name, rid, what in undeclared_timing),
        ]
    return lines
