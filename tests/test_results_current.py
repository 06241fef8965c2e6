"""The recorded results behind the docs' matrix stay true to the spec and the xfails files."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.adapters.torch_jit import SKIPS_FILE, XFAILS_FILE
from conformance.catalog import requirements_in
from conformance.report import RunReport, read_report
from conformance.spec_files import spec_dir
from conformance.xfails import load_xfails

RESULTS = Path(__file__).resolve().parent.parent / "docs" / "_results"
REGENERATE = "re-record them with `make matrix`"


def recorded(name: str) -> RunReport:
    return read_report(RESULTS / f"{name}.json")


@pytest.mark.parametrize("name", ["reference", "torch", "dask"])
def test_recorded_results_cover_exactly_the_spec(name: str) -> None:
    ids = [record.id for record in recorded(name).requirements]
    assert ids == list(requirements_in(spec_dir())), f"docs/_results/{name}.json is stale: " + (
        REGENERATE
    )


def test_the_reference_passes_every_requirement() -> None:
    outcomes = {r.id: r.outcome for r in recorded("reference").requirements}
    assert {o for o in outcomes.values()} == {"passed"}, outcomes


@pytest.mark.parametrize("name", ["reference", "torch", "dask"])
def test_recorded_runs_were_complete_and_read_a_clean_spec(name: str) -> None:
    report = recorded(name)
    assert report.complete, REGENERATE
    assert not report.interrupted, REGENERATE
    assert report.spec_warnings == "", REGENERATE


def test_dask_in_process_passes_every_claimed_requirement() -> None:
    report = recorded("dask")
    outcomes = {r.outcome for r in report.requirements if r.profile in report.profiles}
    assert outcomes == {"passed"}, REGENERATE
    unclaimed = {r.outcome for r in report.requirements if r.profile not in report.profiles}
    assert unclaimed <= {"skipped"}, REGENERATE


def test_torch_fails_exactly_its_declared_requirements() -> None:
    report = recorded("torch")
    failing = {r.id for r in report.requirements if r.outcome not in ("passed", "skipped")}
    assert failing == set(load_xfails(XFAILS_FILE)), REGENERATE
    assert {r.outcome for r in report.requirements if r.id in failing} == {"xfailed"}
    skipped = {r.id: r.profile for r in report.requirements if r.outcome == "skipped"}
    not_claimed = {req_id for req_id, profile in skipped.items() if profile == "dynamic"}
    assert set(skipped) - not_claimed == set(load_xfails(SKIPS_FILE)), REGENERATE
