"""Cascades: one example breaks the engine, and the examples after it fail for that.

A task that kills an engine's event loop may pass its own example; the
example after it then times out, and so does every later one of its group,
because each fresh executor rebuilds the group's namespace by replaying the
tests that passed, the breaking one among them. Those timeouts are one cause,
printed under the example before them, not one each at the line they stood
on. An example after which its executor ended (a crash, a hang) and whose
fresh executor's rebuilds failed is the same story.

From the report alone (each example's worker, executor and place in the
order its worker ran them): per worker, a run of timeouts or hangs that goes
on to the end of its document, after an example of that document that is
not one, is a cascade started by that example when the run has two or more
victims, or one victim and a sign from its start (it failed, or printed an
exception); a crash, hang or timeout followed, in a fresh executor, by
failed rebuilds is a cascade too. The triage view lists the victims under
their start; drafts declare the start (a skip: it must not run) and not them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from conformance.reports.cause_lines import exception_line, one_line
from conformance.reports.json_report import ExampleRecord, RunReport

#: failures that a broken engine makes of the examples after the one that broke it
_VICTIM_KINDS = frozenset({"timeout", "hang"})
_ENDS_EXECUTOR = frozenset({"crash", "hang", "timeout"})


@dataclass(frozen=True)
class Ran:
    """An example as its worker ran it."""

    requirement: str
    record: ExampleRecord

    @property
    def document(self) -> str:
        return self.record.nodeid.partition("::")[0]

    @property
    def failed(self) -> bool:
        return self.record.outcome == "failed"

    @property
    def victim_kind(self) -> bool:
        return self.failed and self.record.kind in _VICTIM_KINDS


@dataclass(frozen=True)
class Cascade:
    """The example that broke the engine, and the examples that failed after it for that."""

    start: Ran
    victims: tuple[Ran, ...]

    def cause(self) -> str:
        """What the start did: its own failure's cause, else the exception it printed."""
        record = self.start.record
        if self.start.failed and record.cause:
            return record.cause
        printed = exception_line(record.output) if record.output.strip() else ""
        said = f"printed {printed}" if printed else "printed nothing"
        return one_line(f"{record.outcome}, and {said}")

    def summary(self) -> str:
        """``after FORK-1[3] every later example of fork.rst timed out (4)``."""
        name = self.start.record.nodeid.rpartition("::")[2]
        kinds = sorted({v.record.kind for v in self.victims})
        what = "failed its rebuild" if kinds == ["setup"] else "timed out or hung"
        count = len(self.victims)
        return (
            f"after {name}, {count} later example{'s' * (count != 1)} of "
            f"{self.start.document} {what}"
        )


def _sequences(report: RunReport) -> dict[str, list[Ran]]:
    """Per worker, the examples that ran, in the order it ran them."""
    ran: dict[str, list[Ran]] = {}
    records = [(r.id, e) for r in report.requirements for e in r.results]
    records += [("", e) for e in report.outside_requirements]
    for requirement, record in records:
        if record.order and record.outcome not in ("skipped", "not-run"):
            ran.setdefault(record.worker, []).append(Ran(requirement, record))
    for sequence in ran.values():
        sequence.sort(key=lambda r: r.record.order)
    return ran


def _shows_a_sign(start: Ran) -> bool:
    return start.failed or bool(start.record.output.strip() and exception_line(start.record.output))


def _timeouts_after(sequence: list[Ran], index: int) -> Cascade | None:
    """The cascade started by ``sequence[index]``: the timeouts after it to its document's
    end; None if it started none."""
    start = sequence[index]
    if start.victim_kind:
        return None
    victims = []
    for later in sequence[index + 1 :]:
        if later.document != start.document:
            break
        if not later.victim_kind:
            return None  # an example of its document came through: the engine recovered
        victims.append(later)
    if len(victims) >= 2 or (victims and _shows_a_sign(start)):
        return Cascade(start, tuple(victims))
    return None


def _rebuilds_after(sequence: list[Ran], index: int) -> Cascade | None:
    """The cascade of a fault whose fresh executor failed the rebuilds after it."""
    start = sequence[index]
    if not (start.failed and start.record.kind in _ENDS_EXECUTOR):
        return None
    victims = []
    for later in sequence[index + 1 :]:
        fresh = later.record.executor != start.record.executor
        if later.document != start.document or not fresh:
            break
        if not (later.failed and later.record.kind == "setup"):
            break
        victims.append(later)
    return Cascade(start, tuple(victims)) if victims else None


def cascades(report: RunReport) -> list[Cascade]:
    """Every cascade of the run, in the order they started."""
    found = []
    for sequence in _sequences(report).values():
        index = 0
        while index < len(sequence):
            cascade = _timeouts_after(sequence, index) or _rebuilds_after(sequence, index)
            if cascade is None:
                index += 1
                continue
            found.append(cascade)
            index += 1 + len(cascade.victims)
    return found


def victims(found: Iterable[Cascade]) -> set[str]:
    """The node IDs of every cascade's victims."""
    return {v.record.nodeid for cascade in found for v in cascade.victims}


__all__ = ["Cascade", "Ran", "cascades", "victims"]
