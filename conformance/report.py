"""The JSON report of a conformance run: one record per requirement, for people and tools.

Written by ``--report PATH`` (controller side under xdist) and read back by
``forkwait-conformance matrix``. ``FORMAT`` is bumped on incompatible changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.adapter import PROFILES, Adapter
from conformance.summary import OUTCOMES, RequirementResults

FORMAT = 1


@dataclass(frozen=True)
class RequirementRecord:
    id: str
    profile: str
    outcome: str
    duration: float
    examples: int
    message: str


@dataclass(frozen=True)
class RunReport:
    implementation: str
    implementation_version: str
    profiles: tuple[str, ...]
    suite_version: str
    created: str
    requirements: tuple[RequirementRecord, ...]

    def by_id(self) -> dict[str, RequirementRecord]:
        return {record.id: record for record in self.requirements}


def build_report(adapter: Adapter, results: RequirementResults, order: list[str]) -> RunReport:
    """Records in spec order (``order``), for the requirements that produced a result."""
    ranked = {req_id: index for index, req_id in enumerate(order)}
    ids = sorted(results.outcomes, key=lambda r: (ranked.get(r, len(ranked)), r))
    return RunReport(
        implementation=adapter.name,
        implementation_version=adapter.version,
        profiles=tuple(sorted(adapter.profiles)),
        suite_version=__version__,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        requirements=tuple(
            RequirementRecord(
                id=req_id,
                profile=results.profiles.get(req_id, ""),
                outcome=results.outcomes[req_id],
                duration=round(results.durations.get(req_id, 0.0), 4),
                examples=len(results.examples.get(req_id, ())),
                message=results.messages.get(req_id, ""),
            )
            for req_id in ids
        ),
    )


def to_json(report: RunReport) -> dict[str, Any]:
    summary = {
        profile: {
            outcome: sum(
                1 for r in report.requirements if r.profile == profile and r.outcome == outcome
            )
            for outcome in OUTCOMES
        }
        for profile in PROFILES
    }
    return {
        "format": FORMAT,
        "suite": {"name": "forkwait-spec", "version": report.suite_version},
        "implementation": {
            "name": report.implementation,
            "version": report.implementation_version,
            "profiles": list(report.profiles),
        },
        "created": report.created,
        "summary": summary,
        "requirements": [record.__dict__ for record in report.requirements],
    }


def write_report(report: RunReport, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(report), indent=2) + "\n", encoding="utf-8")


class ReportError(ValueError):
    """A file that is not a forkwait conformance report."""


def read_report(path: Path) -> RunReport:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ReportError(f"{path}: report format {data.get('format')!r}, expected {FORMAT}")
        implementation = data["implementation"]
        return RunReport(
            implementation=implementation["name"],
            implementation_version=implementation["version"],
            profiles=tuple(implementation["profiles"]),
            suite_version=data["suite"]["version"],
            created=data["created"],
            requirements=tuple(RequirementRecord(**r) for r in data["requirements"]),
        )
    except (OSError, json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise ReportError(f"{path} is not a forkwait conformance report: {exc!r}") from exc
