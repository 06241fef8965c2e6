"""The JSON report matches its published schema, for passing and failing runs alike."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance.reports.json_report import (
    FORMAT,
    ExampleRecord,
    ReportError,
    RequirementRecord,
    RunReport,
    read_report,
    to_json,
)
from conformance.reports.results import EXAMPLE_OUTCOMES, OUTCOMES
from conformance.reports.verdict import STATUSES
from tests.paths import RESULTS


def schema() -> dict[str, Any]:
    """The schema as the package ships it (conformance/reports/report.schema.json)."""
    loaded: dict[str, Any] = json.loads(
        (files("conformance.reports") / "report.schema.json").read_text(encoding="utf-8")
    )
    return loaded


def validate(report: dict[str, Any]) -> None:
    jsonschema.validate(report, schema(), format_checker=jsonschema.FormatChecker())


def test_the_schema_is_a_valid_schema_of_this_format() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    assert schema()["properties"]["format"]["const"] == FORMAT
    profile = schema()["properties"]["verdict"]["properties"]["profiles"]["additionalProperties"]
    assert profile["properties"]["status"]["enum"] == list(STATUSES)
    assert schema()["$defs"]["outcome"]["enum"] == list(OUTCOMES)
    assert schema()["$defs"]["example_outcome"]["enum"] == list(EXAMPLE_OUTCOMES)


@pytest.mark.parametrize("name", ["reference", "torch"])
def test_recorded_reports_match_the_schema(name: str) -> None:
    validate(json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8")))


def written(requirements: tuple[RequirementRecord, ...], **flags: Any) -> dict[str, Any]:
    """A report of one made-up run, as written to the file."""
    report = RunReport(
        implementation="impl",
        implementation_version="1",
        profiles=("core",),
        suite_version="0.1.0",
        created="2026-12-02T18:00:00+00:00",
        requirements=requirements,
        **flags,
    )
    result: dict[str, Any] = json.loads(json.dumps(to_json(report)))
    return result


def test_a_report_with_every_kind_of_result_matches_the_schema() -> None:
    examples = (
        ExampleRecord(1, "default", "", "failed", "crash", "ended its worker", "a.rst::R-1[1]"),
        ExampleRecord(2, "default", "fifo", "xfailed", "output", "declared", "a.rst::R-1[2]"),
    )
    requirements = (
        RequirementRecord("R-1", "core", "MUST", "failed", 0.5, 2, "ended", examples),
        RequirementRecord("R-2", "async", "SHOULD", "not-run", 0.0, 0, ""),
    )
    flags = {"complete": False, "interrupted": True, "outside_requirements": (examples[0],)}
    validate(written(requirements, **flags))


def test_the_schema_rejects_what_is_not_a_report() -> None:
    good = json.loads((RESULTS / "reference.json").read_text(encoding="utf-8"))
    for broken in (
        {**good, "format": 1},
        {**good, "requirements": [{**good["requirements"][0], "outcome": "maybe"}]},
        {key: value for key, value in good.items() if key != "complete"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            validate(broken)


def test_the_verdict_is_in_the_report() -> None:
    passed = ExampleRecord(1, "default", "", "passed", "", "", "a.rst::R-1[1]", line=12)
    failed = ExampleRecord(1, "default", "", "failed", "timeout", "timed out", "a.rst::S-1[1]")
    report = written(
        (
            RequirementRecord("R-1", "core", "MUST", "passed", 0.1, 1, "", (passed,)),
            RequirementRecord("S-1", "core", "SHOULD", "failed", 30.0, 1, "", (failed,)),
        )
    )
    validate(report)
    verdict = report["verdict"]
    assert verdict["passed"]  # a failed SHOULD (a timeout here) does not fail the run
    assert verdict["lines"][:2] == [
        "MUST: 1/1 passed",
        "SHOULD: 0/1 passed, 1 failed (a failed SHOULD or MAY fails the run only with --strict)",
    ]
    assert report["requirements"][0]["results"][0]["line"] == 12
    with pytest.raises(jsonschema.ValidationError):
        validate({**report, "verdict": {**verdict, "lines": ["all good"]}})
    for missing in ("verdict", "selection"):
        with pytest.raises(jsonschema.ValidationError, match=repr(missing)):
            validate({key: value for key, value in report.items() if key != missing})
    example = report["requirements"][0]["results"][0]
    for missing in ("line", "probe", "cause"):
        broken = {key: value for key, value in example.items() if key != missing}
        with pytest.raises(jsonschema.ValidationError, match=repr(missing)):
            validate({**report, "outside_requirements": [broken]})


def test_a_report_of_any_other_format_is_refused_naming_the_one_read(tmp_path: Path) -> None:
    passed = ExampleRecord(1, "default", "", "passed", "", "", "a::R-1[1]")
    report = written((RequirementRecord("R-1", "core", "MUST", "passed", 0.1, 1, "", (passed,)),))
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report))
    assert read_report(path).requirements[0].outcome == "passed"
    # 3 counted a partly checked requirement as passed: not read as if it had not
    for other in (2, 3, FORMAT + 1, "4", True):
        path.write_text(json.dumps({**report, "format": other}))
        with pytest.raises(
            ReportError, match=rf"report format .*; this suite reads format {FORMAT} only"
        ):
            read_report(path)
