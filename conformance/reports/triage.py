"""The triage view: a run's failures, one line each, grouped by cause.

A first run of a new engine fails dozens of examples, each with a block of
dozens of lines; a handful of causes explain them all. This view gives one
line per failed example (its name, the kind of failure, its cause) under the
cause they share (cause_lines.signature: the same exception or difference up to
addresses, numbers and quoted names), the largest group first. The terminal
shows it bounded at the end of a failing run; ``forkwait-conformance triage
REPORT.json`` shows it whole. It reads a RunReport only, so a report read
back gives the same view as the run that wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from conformance.reports.cause_lines import signature
from conformance.reports.json_report import ExampleRecord, RunReport
from conformance.sphinx_doctest.outcome import FailureKind

#: the cause of an unexpected pass: what to do about it
XPASSED_CAUSE = "declared to fail, but passed: remove it from the expected failures"


@dataclass(frozen=True)
class Failure:
    """One example that failed the run: ``FORK-CALLS-1[2]``, its kind and its cause."""

    name: str
    requirement: str
    example: int
    #: a FailureKind's value; or "xpassed"
    kind: str
    cause: str


@dataclass(frozen=True)
class Group:
    """Failures with one cause."""

    signature: str
    failures: tuple[Failure, ...]

    @property
    def kind(self) -> str:
        return self.failures[0].kind

    @property
    def cause(self) -> str:
        """The cause as the first of them said it (the signature, made readable)."""
        return self.failures[0].cause


def _name(record: ExampleRecord) -> str:
    """The example's name as pytest gives it: ``FORK-CALLS-1[2][schedule fifo]``."""
    return record.nodeid.rpartition("::")[2] or f"example {record.example}"


def failures(report: RunReport) -> list[Failure]:
    """Every example that failed the run or was declared and passed, in spec order."""
    found = []
    records = [(r.id, e) for r in report.requirements for e in r.results]
    records += [("", e) for e in report.outside_requirements]
    for requirement, record in records:
        if record.outcome == "failed":
            kind = record.kind or FailureKind.ERROR.value
            cause = record.cause or "(no cause recorded)"
        elif record.outcome == "xpassed":
            kind, cause = "xpassed", XPASSED_CAUSE
        else:
            continue
        found.append(Failure(_name(record), requirement, record.example, kind, cause))
    return found


def incompleteness(report: RunReport) -> str | None:
    """Why the report does not show every failure of the spec (an interrupted run, a
    selection, examples left unrun), in one sentence; None for a whole run. Without it,
    "no failures" of a run stopped in its first second would read as a pass."""
    not_run = sum(1 for r in report.requirements if r.outcome == "not-run")
    unrun = f"; {not_run} requirement{'s' * (not_run != 1)} did not run" if not_run else ""
    if report.interrupted:
        return f"the run was interrupted{unrun}: what follows covers only what ran"
    if report.partial:
        chosen = ", ".join(report.selection)
        return f"a partial run ({chosen}){unrun}: what follows covers only what it selected"
    if not report.complete:
        return f"the run did not run every example{unrun}: what follows covers only what ran"
    return None


def groups(found: Iterable[Failure]) -> list[Group]:
    """The failures by cause, the largest group first (ties: the first in the spec first)."""
    by_signature: dict[str, list[Failure]] = {}
    for failure in found:
        by_signature.setdefault(signature(failure.kind, failure.cause), []).append(failure)
    ordered = sorted(by_signature.items(), key=lambda item: -len(item[1]))
    return [Group(key, tuple(members)) for key, members in ordered]


def render(
    report: RunReport, *, most_groups: int | None = None, most_lines: int | None = None
) -> list[str]:
    """The triage view as lines; with limits, each cut says how much it left out."""
    found = failures(report)
    if not found:
        return ["no failures: every example that ran passed or failed as declared"]
    grouped = groups(found)
    width = max(len(f.name) for f in found)
    lines = [
        f"{len(found)} failed example{'s' * (len(found) != 1)}, "
        f"{len(grouped)} cause{'s' * (len(grouped) != 1)} (the most frequent first):"
    ]
    shown = grouped if most_groups is None else grouped[:most_groups]
    for group in shown:
        lines += ["", f"[{len(group.failures)}] {group.kind}: {group.cause}"]
        members = group.failures if most_lines is None else group.failures[:most_lines]
        lines += [f"    {f.name:<{width}}  {f.kind:<9}  {f.cause}" for f in members]
        if len(members) < len(group.failures):
            lines.append(f"    ... and {len(group.failures) - len(members)} more of this cause")
    if len(shown) < len(grouped):
        rest = grouped[len(shown) :]
        count = sum(len(group.failures) for group in rest)
        lines += ["", f"... and {len(rest)} more causes ({count} failed examples)"]
    return lines


__all__ = ["XPASSED_CAUSE", "Failure", "Group", "failures", "groups", "incompleteness", "render"]
