"""The JSON report of a conformance run: every requirement, with each example's outcome.

Written by ``--report PATH`` (on the xdist controller) and read back by
``forkwait-conformance matrix``. Every requirement of the spec has a record,
also those that did not run; the run says whether it was complete or
interrupted. The format is described by ``report.schema.json`` (shipped with
the package); ``FORMAT`` is bumped on incompatible changes, and a report of
another format is refused, naming both. Format 4 added the requirement outcome
``partly-checked`` (passed what ran, some examples skipped as declared), which
a format 3 report counted as passed. Format 5 added what the triage view needs
to tell causes from their effects: where each failure came from and whether
the adapter's code raised it, which worker and executor ran each example and
in what order, the end of what it printed, and whether it was declared flaky.
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
from conformance.reports.readable import NotRegular, check_regular
from conformance.reports.results import (
    OUTCOMES,
    PARTLY_CHECKED,
    ExampleResult,
    RunResults,
    declared_reason,
)
from conformance.reports.verdict import Verdict, judge

FORMAT = 5
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
    #: the .rst line of the example's first code line (0: unknown)
    line: int = 0
    #: one of the requirement's probes, not one of its examples
    probe: bool = False
    #: a failure's cause in one line (cause_lines.py)
    cause: str = ""
    #: a failure's origin: the frame it was raised or hung at (frames.py), or ""
    where: str = ""
    #: the adapter's own code raised it: a bug of the glue, never drafted as a limit
    adapter_error: bool = False
    #: the xdist worker that ran it ("" in a plain run)
    worker: str = ""
    #: which of its worker's executors ran it (1 for the first; 0 unknown)
    executor: int = 0
    #: its place in the order its worker ran examples (1 for the first; 0 unknown)
    order: int = 0
    #: the end of what its executor printed while it ran
    output: str = ""
    #: declared to depend on timing: a pass and the declared failure both accepted
    flaky: bool = False


@dataclass(frozen=True)
class RequirementRecord:
    id: str
    profile: str
    level: str
    outcome: str
    duration: float
    #: how many examples produced a result
    examples: int
    #: the message of the worst example (the failure, or the skip/xfail reason); for a
    #: partly checked one, which of its examples were skipped, and why
    message: str
    results: tuple[ExampleRecord, ...] = ()

    def declared_skip(self, example: ExampleRecord) -> str | None:
        """The reason ``example`` was skipped with by a skips list, or None if it was not."""
        return self.declared(example) if example.outcome == "skipped" else None

    def declared(self, example: ExampleRecord) -> str | None:
        """The reason ``example`` was declared with (an expected failure, a flaky one, a
        skip), if the run counted it as declared; else None."""
        return declared_reason(self.id, example.example, example.outcome, example.message)

    def skipped_examples(self) -> list[int]:
        """The numbers of its examples that were skipped (each once, under any schedule)."""
        return sorted({e.example for e in self.results if e.outcome == "skipped"})

    def in_part(self) -> str:
        """``2 of 3 examples skipped``: how much of it was not checked (probes count as
        examples: they share one numbering)."""
        skipped = len(self.skipped_examples())
        total = len({e.example for e in self.results})
        return f"{skipped} of {total} example{'s' * (total != 1)} skipped"


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
        result.where,
        result.adapter_error,
        result.worker,
        result.executor,
        result.order,
        result.output,
        result.flaky,
    )


def _skipped_message(record: RequirementRecord) -> str:
    """``2 of 3 examples skipped as declared (examples 2, 3): the reason``: a partly checked
    requirement's message, each reason once."""
    reasons = {
        record.declared_skip(e) or " ".join(e.message.split()): None
        for e in record.results
        if e.outcome == "skipped"
    }
    numbers = record.skipped_examples()
    which = f"example{'s' * (len(numbers) > 1)} {', '.join(map(str, numbers))}"
    return f"{record.in_part()} as declared ({which}): {'; '.join(reasons)}"


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
        record = RequirementRecord(
            id=req_id,
            profile=requirement.profile,
            level=requirement.level,
            outcome=results.outcome(req_id),
            duration=round(sum(r.duration for r in examples), 4),
            examples=sum(1 for r in examples if r.outcome != "not-run"),
            message=worst.message if worst else "",
            results=tuple(_example(r) for r in examples),
        )
        if record.outcome == PARTLY_CHECKED:
            record = replace(record, message=_skipped_message(record))
        records.append(record)
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
        check_regular(path)  # a FIFO would block the reader forever
        data = json.loads(path.read_text(encoding="utf-8"))
        found = data.get("format") if isinstance(data, dict) else None
        if found != FORMAT:
            raise ReportError(
                f"{path}: report format {reprlib.repr(found)}; this suite reads format "
                f"{FORMAT} only (run the suite again for a report of this format)"
            )
        _check_schema(path, data)
        return _report_from(data)
    except ReportError:
        raise
    except RecursionError as exc:
        raise ReportError(
            f"{path} is not a forkwait conformance report: nested too deeply"
        ) from exc
    except NotRegular as exc:
        raise ReportError(str(exc)) from exc
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        what = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        what = " ".join(what.split())
        raise ReportError(f"{path} is not a forkwait conformance report: {what}") from exc


def _report_from(data: dict[str, Any]) -> RunReport:
    """A report checked against the schema, as a RunReport."""
    implementation = data["implementation"]
    return RunReport(
        implementation=implementation["name"],
        implementation_version=implementation["version"],
        profiles=tuple(implementation["profiles"]),
        suite_version=data["suite"]["version"],
        created=data["created"],
        requirements=tuple(
            RequirementRecord(**{**r, "results": tuple(ExampleRecord(**e) for e in r["results"])})
            for r in data["requirements"]
        ),
        complete=bool(data["complete"]),
        interrupted=bool(data["interrupted"]),
        strict=bool(data["strict"]),
        outside_requirements=tuple(ExampleRecord(**e) for e in data["outside_requirements"]),
        spec_warnings=str(data["spec_warnings"]),
        selection=tuple(data["selection"]),
    )
