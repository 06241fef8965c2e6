"""The JSON report of a conformance run: every requirement, with each example's outcome.

Written by ``--report PATH`` (on the xdist controller) and read back by
``forkwait-conformance matrix``. Every requirement of the spec has a record,
also those that did not run; the run says whether it was complete or
interrupted. The format is described by ``report.schema.json`` (shipped with
the package); ``FORMAT`` is bumped on incompatible changes. Reports of the
formats in ``READ`` are read too: a format 2 report has no causes (each is
read from its failure's message) and says only whether it was partial.
"""

from __future__ import annotations

import functools
import json
import re
import reprlib
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.adapter import Adapter
from conformance.catalog.vocabulary import PROFILES
from conformance.reports import atomic
from conformance.reports.cause_lines import from_message
from conformance.reports.results import OUTCOMES, ExampleResult, RunResults
from conformance.reports.verdict import Verdict, judge

FORMAT = 3
#: the formats read_report reads (FORMAT and the ones before it that it can still read)
READ = (2, 3)
#: what a format 2 report says of a partial run's selection (it kept no more)
UNKNOWN_SELECTION = "a selection"
#: longest part of a schema error shown (jsonschema quotes the offending value whole)
_SHOWN = 200


@functools.cache
def schema() -> dict[str, Any]:
    """The report's JSON Schema, as the package ships it (report.schema.json)."""
    text = (files("conformance.reports") / "report.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def requirement_id() -> re.Pattern[str]:
    """What a requirement ID may be: the schema's pattern, so that every ID the spec's
    directive accepts can be written into a valid report."""
    return re.compile(schema()["$defs"]["requirement"]["properties"]["id"]["pattern"])


@dataclass(frozen=True)
class ExampleRecord:
    example: int
    group: str
    schedule: str
    outcome: str
    kind: str
    message: str
    nodeid: str
    #: the .rst line of the example's first code line (0: unknown, or an older report)
    line: int = 0
    #: one of the requirement's probes, not one of its examples (False in older reports)
    probe: bool = False
    #: a failure's cause in one line (cause_lines.py); read from the message in older reports
    cause: str = ""


@dataclass(frozen=True)
class RequirementRecord:
    id: str
    profile: str
    level: str
    outcome: str
    duration: float
    #: how many examples produced a result
    examples: int
    #: the message of the worst example (the failure, or the skip/xfail reason)
    message: str
    results: tuple[ExampleRecord, ...] = ()


@dataclass(frozen=True)
class RunReport:
    implementation: str
    implementation_version: str
    profiles: tuple[str, ...]
    suite_version: str
    created: str
    requirements: tuple[RequirementRecord, ...]
    #: every selected example ran to its end (no interruption, nothing left unrun)
    complete: bool = True
    interrupted: bool = False
    strict: bool = False
    outside_requirements: tuple[ExampleRecord, ...] = ()
    #: what Sphinx warned about while reading the spec (a clean spec has none)
    spec_warnings: str = ""
    #: what made the run partial (``--quick``, ``-k EXPR``...): the verdict judges only
    #: what ran; empty for a whole run
    selection: tuple[str, ...] = ()

    @property
    def partial(self) -> bool:
        return bool(self.selection)

    def verdict(self) -> Verdict:
        """The run's verdict, from this report's records alone."""
        return judge(
            self.implementation,
            self.profiles,
            self.requirements,
            selection=self.selection,
            strict=self.strict,
            interrupted=self.interrupted,
            outside=self.outside_requirements,
            spec_warnings=self.spec_warnings,
        )

    def by_id(self) -> dict[str, RequirementRecord]:
        return {record.id: record for record in self.requirements}


def _example(result: ExampleResult) -> ExampleRecord:
    return ExampleRecord(
        result.number,
        result.group,
        result.schedule,
        result.outcome,
        result.kind,
        result.message,
        result.nodeid,
        result.line,
        result.probe,
        result.cause,
    )


def build_report(  # noqa: PLR0913 - each is one fact the report records
    adapter: Adapter,
    results: RunResults,
    *,
    interrupted: bool,
    strict: bool,
    spec_warnings: str = "",
    selection: tuple[str, ...] = (),
) -> RunReport:
    """One record per requirement of the catalog, in spec order."""
    records = []
    for req_id, requirement in results.catalog.items():
        examples = results.of(req_id)
        worst = results.worst(req_id)
        records.append(
            RequirementRecord(
                id=req_id,
                profile=requirement.profile,
                level=requirement.level,
                outcome=results.outcome(req_id),
                duration=round(sum(r.duration for r in examples), 4),
                examples=sum(1 for r in examples if r.outcome != "not-run"),
                message=worst.message if worst else "",
                results=tuple(_example(r) for r in examples),
            )
        )
    return RunReport(
        implementation=adapter.name,
        implementation_version=adapter.version,
        profiles=tuple(sorted(adapter.profiles)),
        suite_version=__version__,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        requirements=tuple(records),
        complete=not interrupted and all(r.outcome != "not-run" for r in records),
        interrupted=interrupted,
        strict=strict,
        outside_requirements=tuple(_example(r) for r in results.outside()),
        spec_warnings=spec_warnings,
        selection=selection,
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
        "complete": report.complete,
        "interrupted": report.interrupted,
        "strict": report.strict,
        "summary": summary,
        "requirements": [asdict(record) for record in report.requirements],
        "outside_requirements": [asdict(record) for record in report.outside_requirements],
        "spec_warnings": report.spec_warnings,
        "selection": list(report.selection),
        "verdict": report.verdict().to_json(),
    }


def write_report(report: RunReport, path: Path) -> None:
    """Write atomically: a reader never sees half a report (reports/atomic.py)."""
    atomic.write_atomically(path, json.dumps(to_json(report), indent=2) + "\n")


class ReportError(ValueError):
    """A file that is not a forkwait conformance report, or cannot be written."""


def _check_schema(path: Path, data: object) -> None:
    """Raise ReportError, in one line, at the first place ``data`` breaks the schema."""
    import jsonschema  # noqa: PLC0415 - 56 ms that a run, which only writes reports, skips

    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema()).iter_errors(data)
    )
    if error is not None:
        where = error.json_path.replace("$", "the report", 1)
        message = " ".join(error.message.split())
        if len(message) > _SHOWN:
            message = message[:_SHOWN] + "..."
        raise ReportError(f"{path} is not a forkwait conformance report: {where}: {message}")


def read_report(path: Path) -> RunReport:
    """A report written by --report, checked against its schema; ReportError (one line)
    for anything else: a file that cannot be read, is not JSON, nests too deeply."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        found = data.get("format") if isinstance(data, dict) else None
        if found not in READ:
            raise ReportError(
                f"{path}: report format {reprlib.repr(found)}; this suite reads formats "
                f"{', '.join(map(str, READ))} (a report of a newer suite needs that suite)"
            )
        _check_schema(path, data)
        return _report_from(data)
    except ReportError:
        raise
    except RecursionError as exc:
        raise ReportError(
            f"{path} is not a forkwait conformance report: nested too deeply"
        ) from exc
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        what = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        what = " ".join(what.split())
        raise ReportError(f"{path} is not a forkwait conformance report: {what}") from exc


def _example_from(data: dict[str, Any]) -> ExampleRecord:
    record = ExampleRecord(**data)
    if "cause" in data or record.outcome not in ("failed", "xfailed"):
        return record
    return replace(record, cause=from_message(record.kind, record.message))


def _report_from(data: dict[str, Any]) -> RunReport:
    """A report checked against the schema, as a RunReport (of any format in READ)."""
    implementation = data["implementation"]
    return RunReport(
        implementation=implementation["name"],
        implementation_version=implementation["version"],
        profiles=tuple(implementation["profiles"]),
        suite_version=data["suite"]["version"],
        created=data["created"],
        requirements=tuple(
            RequirementRecord(**{**r, "results": tuple(_example_from(e) for e in r["results"])})
            for r in data["requirements"]
        ),
        complete=bool(data["complete"]),
        interrupted=bool(data["interrupted"]),
        strict=bool(data["strict"]),
        outside_requirements=tuple(_example_from(e) for e in data["outside_requirements"]),
        spec_warnings=str(data["spec_warnings"]),
        selection=tuple(data["selection"]) if "selection" in data else _old_selection(data),
    )


def _old_selection(data: dict[str, Any]) -> tuple[str, ...]:
    """A format 2 report says only whether its run was partial, not which selection ran."""
    return (UNKNOWN_SELECTION,) if data.get("verdict", {}).get("partial") else ()
