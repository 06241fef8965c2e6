"""The triage view: a run's failures, one line each, grouped by cause.

A first run of a new engine fails dozens of examples, each with a block of
dozens of lines; a handful of causes explain them all. This view gives one
line per failed example (its name, the kind of failure, its cause) under the
cause they share, the largest group first:

- a *cascade* (cascades.py) is one cause: the example that broke the engine,
  with what it raised or printed, and its victims listed under it;
- an exception raised from the same frame of the code the spec called, or a
  timeout that hung at the same frame (frames.py), is one cause, whatever
  the messages say; other failures group by their cause's signature
  (cause_lines.signature: the same exception or difference up to addresses,
  numbers and quoted names);
- a failure the adapter's own code raised is an *adapter error*: a bug to fix
  in the adapter, grouped apart and never drafted as a limit of the engine.

The terminal shows it bounded at the end of a failing run; ``forkwait-conformance
triage REPORT.json`` shows it whole. It reads a RunReport only, so a report read
back gives the same view as the run that wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from conformance.reports.cascades import Cascade, cascades
from conformance.reports.cause_lines import signature
from conformance.reports.frames import SPEC_SUFFIXES
from conformance.reports.json_report import ExampleRecord, RunReport
from conformance.sphinx_doctest.outcome import FailureKind

#: the cause of an unexpected pass: what to do about it
XPASSED_CAUSE = "declared to fail, but passed: remove it from the expected failures"
#: the label of a failure the adapter's own code raised
ADAPTER_ERROR = "adapter error"
#: the label of a cascade's group
CASCADE = "cascade"


@dataclass(frozen=True)
class Failure:
    """One example that failed the run: ``FORK-CALLS-1[2]``, its kind and its cause."""

    name: str
    requirement: str
    example: int
    #: a FailureKind's value; or "xpassed"
    kind: str
    cause: str
    #: the frame it was raised or hung at (frames.py), or ""
    where: str = ""
    #: the adapter's own code raised it
    adapter_error: bool = False
    #: the node ID of the example whose cascade it is a victim of, or ""
    cascade_of: str = ""
    nodeid: str = ""

    @property
    def label(self) -> str:
        """What the line calls its kind: an adapter error is told apart."""
        return ADAPTER_ERROR if self.adapter_error else self.kind

    def key(self) -> str:
        """What the failures of one cause share: a timeout's frame; an exception's type and
        the frame of the code the spec called; else the signature of its cause."""
        spec_frame = self.where.partition(",")[0].endswith(SPEC_SUFFIXES)
        if self.where and self.kind == "timeout":
            return f"{self.label}: at {self.where}"
        if self.where and self.kind == "exception" and not spec_frame:
            return f"{self.label}: {self.cause.partition(':')[0]} at {self.where}"
        return f"{self.label}: {signature(self.kind, self.cause)}"


@dataclass(frozen=True)
class Group:
    """Failures with one cause."""

    signature: str
    failures: tuple[Failure, ...]
    #: the cascade it is (its start's failure first, if the start failed), or None
    cascade: Cascade | None = None

    @property
    def kind(self) -> str:
        return CASCADE if self.cascade is not None else self.failures[0].label

    @property
    def cause(self) -> str:
        """The cause as the first of them said it (the signature, made readable), and
        where it came from; a cascade's: what its start did, and what followed."""
        if self.cascade is not None:
            return f"{self.cascade.summary()}: {self.cascade.cause()}"
        first = self.failures[0]
        return first.cause + (f" (at {first.where})" if first.where else "")


def _name(record: ExampleRecord) -> str:
    """The example's name as pytest gives it: ``FORK-CALLS-1[2][schedule fifo]``."""
    return record.nodeid.rpartition("::")[2] or f"example {record.example}"


def failures(report: RunReport) -> list[Failure]:
    """Every example that failed the run or was declared and passed, in spec order; a
    cascade's victims say whose."""
    victim_of = {
        v.record.nodeid: cascade.start.record.nodeid
        for cascade in cascades(report)
        for v in cascade.victims
    }
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
        found.append(
            Failure(
                _name(record),
                requirement,
                record.example,
                kind,
                cause,
                record.where,
                record.adapter_error,
                victim_of.get(record.nodeid, ""),
                record.nodeid,
            )
        )
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


def groups(found: Iterable[Failure], report: RunReport | None = None) -> list[Group]:
    """The failures by cause, the largest group first (ties: the first in the spec first);
    with the ``report`` they came from, each cascade is one group: its start's failure
    (if it failed), then its victims."""
    found = list(found)
    chains = cascades(report) if report is not None else []
    by_node = {f.nodeid: f for f in found}
    result: list[Group] = []
    for cascade in chains:
        nodes = [cascade.start.record.nodeid, *(v.record.nodeid for v in cascade.victims)]
        members = tuple(by_node.pop(node) for node in nodes if node in by_node)
        result.append(Group(f"{CASCADE}: {nodes[0]}", members, cascade))
    by_key: dict[str, list[Failure]] = {}
    for failure in by_node.values():
        by_key.setdefault(failure.key(), []).append(failure)
    result += [Group(key, tuple(members)) for key, members in by_key.items()]
    return sorted(result, key=lambda group: -_weight(group))


def _weight(group: Group) -> int:
    """How many examples a group's cause failed (a cascade's start counts, passed or not)."""
    started = group.cascade is not None and group.cascade.start.record.outcome != "failed"
    return len(group.failures) + started


def render(
    report: RunReport, *, most_groups: int | None = None, most_lines: int | None = None
) -> list[str]:
    """The triage view as lines; with limits, each cut says how much it left out."""
    found = failures(report)
    if not found:
        return ["no failures: every example that ran passed or failed as declared"]
    grouped = groups(found, report)
    width = max(len(f.name) for f in found)
    label = max(len(f.label) for f in found)
    lines = [
        f"{len(found)} failed example{'s' * (len(found) != 1)}, "
        f"{len(grouped)} cause{'s' * (len(grouped) != 1)} (the most frequent first):"
    ]
    shown = grouped if most_groups is None else grouped[:most_groups]
    for group in shown:
        lines += ["", f"[{len(group.failures)}] {group.kind}: {group.cause}"]
        if group.kind == ADAPTER_ERROR:
            lines.append("    (raised by the adapter's own code: fix the adapter; not drafted)")
        start = group.cascade.start if group.cascade is not None else None
        if start is not None and start.record.outcome != "failed":
            said = group.cascade.cause() if group.cascade is not None else ""
            lines.append(f"    {_name(start.record):<{width}}  {'(start)':<{label}}  {said}")
        members = group.failures if most_lines is None else group.failures[:most_lines]
        lines += [f"    {f.name:<{width}}  {f.label:<{label}}  {f.cause}" for f in members]
        if len(members) < len(group.failures):
            lines.append(f"    ... and {len(group.failures) - len(members)} more of this cause")
    if len(shown) < len(grouped):
        rest = grouped[len(shown) :]
        count = sum(len(group.failures) for group in rest)
        lines += ["", f"... and {len(rest)} more causes ({count} failed examples)"]
    return lines


__all__ = [
    "ADAPTER_ERROR",
    "CASCADE",
    "XPASSED_CAUSE",
    "Failure",
    "Group",
    "failures",
    "groups",
    "incompleteness",
    "render",
]
