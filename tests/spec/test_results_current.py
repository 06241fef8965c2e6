"""The recorded results behind the docs' matrix stay true to the spec and the xfails files."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import conformance.adapters
from conformance.catalog.expectations import load_entries
from conformance.catalog.files import spec_dir
from conformance.catalog.requirements import requirements_in
from conformance.reports.json_report import RunReport, read_report
from tests.paths import REPO, RESULTS

REGENERATE = "re-record them with `make matrix`"
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
#: every implementation `make matrix` records: pyproject.toml's entry points
ENGINES = list(PYPROJECT["entry-points"]["forkwait.implementations"])
#: the files an engine declares its expected failures and skips in, beside the adapters (by
#: path: importing the gevent adapter would monkey-patch this process). The reference has
#: none; dask's in-process cluster: the remote files apply to another cluster only.
ADAPTERS = Path(conformance.adapters.__file__).parent
DECLARED = {
    name: (ADAPTERS / f"{name}_xfails.toml", ADAPTERS / f"{name}_skips.toml")
    for name in ENGINES
    if (ADAPTERS / f"{name}_xfails.toml").exists()
}


def recorded(name: str) -> RunReport:
    return read_report(RESULTS / f"{name}.json")


@pytest.mark.parametrize("name", ENGINES)
def test_recorded_results_cover_exactly_the_spec(name: str) -> None:
    ids = [record.id for record in recorded(name).requirements]
    assert ids == list(requirements_in(spec_dir())), f"docs/_results/{name}.json is stale: " + (
        REGENERATE
    )


def test_the_reference_passes_every_requirement() -> None:
    outcomes = {r.id: r.outcome for r in recorded("reference").requirements}
    assert {o for o in outcomes.values()} == {"passed"}, outcomes


@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_but_the_reference_declares_what_it_fails(name: str) -> None:
    xfails, skips = ADAPTERS / f"{name}_xfails.toml", ADAPTERS / f"{name}_skips.toml"
    assert (name in DECLARED) == (name != "reference"), f"{xfails.name}, {skips.name}"
    assert xfails.exists() == skips.exists(), f"{xfails.name} and {skips.name} go together"


@pytest.mark.parametrize("name", ENGINES)
def test_recorded_runs_were_complete_and_read_a_clean_spec(name: str) -> None:
    report = recorded(name)
    assert report.complete, REGENERATE
    assert not report.interrupted, REGENERATE
    assert report.spec_warnings == "", REGENERATE


def skipped_examples(report: RunReport) -> set[tuple[str, int]]:
    """(requirement, example) of every example a report says was skipped, not for its profile
    nor for an adapter without an explorer (the suite skips both by itself)."""
    return {
        (r.id, e.example)
        for r in report.requirements
        if r.profile in report.profiles
        for e in r.results
        if e.outcome == "skipped" and not e.message.endswith("gives no explorer")
    }


def declared_skips(path: Path, report: RunReport) -> set[tuple[str, int]]:
    """(requirement, example) of every example a skips file names, for the recorded run."""
    counts = {r.id: max((e.example for e in r.results), default=0) for r in report.requirements}
    return {
        (req_id, example)
        for req_id, entry in load_entries(path, "skips").items()
        for example in range(1, counts.get(req_id, 0) + 1)
        if entry.covers(example)
    }


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_an_engine_fails_exactly_its_declared_requirements(name: str) -> None:
    xfails, skips = DECLARED[name]
    report = recorded(name)
    declared = ("passed", "partly-checked", "skipped")  # what passes, as declared
    failing = {r.id for r in report.requirements if r.outcome not in declared}
    assert failing == set(load_entries(xfails)), REGENERATE
    assert {r.outcome for r in report.requirements if r.id in failing} <= {"xfailed"}
    assert skipped_examples(report) == declared_skips(skips, report), REGENERATE
    unclaimed = {r.outcome for r in report.requirements if r.profile not in report.profiles}
    assert unclaimed <= {"skipped"}, REGENERATE


@pytest.mark.parametrize("name", ENGINES)
def test_an_engine_claims_at_least_core(name: str) -> None:
    assert "core" in recorded(name).profiles
