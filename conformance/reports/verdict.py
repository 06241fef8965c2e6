"""The verdict of a run: per claimed profile, per level, whether the run fails, and why.

One module decides it so that the terminal, the JSON report and the exit
status cannot disagree: each reads the same :class:`Verdict`. It is computed
from a :class:`~conformance.reports.json_report.RunReport`'s records (the
requirements, each with its examples), so a report read back gives the same
verdict as the run that wrote it.

Words: a requirement (or example) *passed*, *failed*, *xfailed* (failed as
declared), *xpassed* (declared to fail, but passed), was *skipped* or is
*not-run*, as in pytest's last line; a requirement is *partly-checked* when it
passed what ran but some of its examples were skipped as declared. Only the
claimed profiles are judged; a *partial* run (``--quick``, ``-k``, ``-m``, node
IDs, ``--lf``, ``-x``...) judges only what ran, says which selection it was, and
never says "conforms". A profile whose MUSTs are partly checked never reads as
a plain "conforms" either: it "conforms, checked in part", and the counts say
how many; a declared skip does not fail the run, even under ``--strict``.

Declarations are counted too: those whose reason is still a draft's (``TO
CONFIRM``) are named, and fail the run under ``--strict``; examples declared
to depend on timing (``flaky = true``) are named with how each ended, apart
from the passed and the expected failures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from conformance.catalog.expectations import unconfirmed
from conformance.catalog.vocabulary import LEVELS, PROFILES
from conformance.reports.results import (
    EXAMPLE_OUTCOMES,
    OUTCOMES,
    PARTLY_CHECKED,
    declared_reason,
)

CONFORMS = "conforms"
#: every MUST passed what ran, some with examples skipped as declared
CHECKED_IN_PART = "conforms, checked in part"
NOT_FULLY_CHECKED = "not fully checked"
DOES_NOT_CONFORM = "does not conform"
#: a profile's statuses, best first (the report's schema lists the same)
STATUSES = (CONFORMS, CHECKED_IN_PART, NOT_FULLY_CHECKED, DOES_NOT_CONFORM)


class _Example(Protocol):
    @property
    def example(self) -> int: ...
    @property
    def outcome(self) -> str: ...
    @property
    def probe(self) -> bool: ...
    @property
    def message(self) -> str: ...
    @property
    def flaky(self) -> bool: ...


class _Requirement(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def profile(self) -> str: ...
    @property
    def level(self) -> str: ...
    @property
    def outcome(self) -> str: ...
    @property
    def results(self) -> Sequence[_Example]: ...


@dataclass(frozen=True)
class Tally:
    """How many requirements (or examples) ended with each outcome."""

    counts: Mapping[str, int] = field(default_factory=dict)
    #: the outcomes counted: a requirement's (OUTCOMES) or an example's (EXAMPLE_OUTCOMES)
    outcomes: tuple[str, ...] = OUTCOMES

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def __getitem__(self, outcome: str) -> int:
        return self.counts.get(outcome, 0)

    def fraction(self) -> str:
        """``46/46 passed``, then every other outcome that occurred: ``, 2 partly-checked,
        1 failed``. A partly checked requirement is not among the passed."""
        rest = "".join(f", {self[o]} {o}" for o in self.outcomes[1:] if self[o])
        return f"{self['passed']}/{self.total} passed{rest}"

    def to_json(self) -> dict[str, int]:
        return {"total": self.total, **{outcome: self[outcome] for outcome in self.outcomes}}


@dataclass(frozen=True)
class ProfileVerdict:
    """One claimed profile: its requirements per level, and whether its MUSTs hold."""

    profile: str
    levels: Mapping[str, Tally]
    #: only a selection of its examples ran
    partial: bool = False

    @property
    def status(self) -> str:
        """A MUST that did not run at all leaves the profile not fully checked; one that
        ran in part (examples skipped as declared) leaves it checked in part."""
        must = self.levels["MUST"]
        if must["failed"] or must["xpassed"] or must["xfailed"]:
            return DOES_NOT_CONFORM
        if must["skipped"] or must["not-run"] or self.partial:
            return NOT_FULLY_CHECKED
        return CHECKED_IN_PART if must[PARTLY_CHECKED] else CONFORMS

    def musts(self) -> str:
        """``core 44/46 MUST (2 checked in part)``: its MUSTs passed, of all it has."""
        must = self.levels["MUST"]
        in_part = f" ({must[PARTLY_CHECKED]} checked in part)" if must[PARTLY_CHECKED] else ""
        return f"{self.profile} {must['passed']}/{must.total} MUST{in_part}"


@dataclass(frozen=True)
class Verdict:
    """What the run says about the implementation, and whether the run fails."""

    implementation: str
    claimed: tuple[str, ...]
    #: what made the run partial (``--quick``, ``-k EXPR``...); empty for a whole run
    selection: tuple[str, ...]
    strict: bool
    profiles: tuple[ProfileVerdict, ...]
    levels: Mapping[str, Tally]
    #: every example by outcome, probes included (pytest's own counts)
    examples: Tally
    #: the probes among them (``.. probes::``)
    probes: Tally
    #: why the run fails (empty: it passes), one sentence each
    failing: tuple[str, ...]
    #: the requirements declared with a drafted reason (TO CONFIRM) still
    unconfirmed: tuple[str, ...] = ()
    #: the examples declared flaky, with how each ended: ``R-1 example 2: passed``
    flaky: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.failing

    @property
    def partial(self) -> bool:
        """Only a selection of the examples ran: only what ran is judged."""
        return bool(self.selection)

    def partial_words(self) -> str:
        """``partial: --quick, -k FORK``: which selection ran, for the headline and table."""
        return f"partial: {', '.join(self.selection)}" if self.selection else ""

    def headline(self) -> str:
        """``reference conforms: core 46/46 MUST, ...`` - one line for the whole run."""
        statuses = {p.status for p in self.profiles}
        must = self.levels["MUST"]
        if not self.profiles:
            word = "was not checked (nothing of a claimed profile ran)"
        elif statuses == {CONFORMS}:
            word = CONFORMS
        elif statuses <= {CONFORMS, CHECKED_IN_PART}:
            word = CHECKED_IN_PART
        elif DOES_NOT_CONFORM in statuses:
            declared = must["xfailed"]
            undeclared = must["failed"] + must["xpassed"]
            word = DOES_NOT_CONFORM + (
                f" (as declared: {declared} MUST expected to fail)"
                if declared and not undeclared
                else ""
            )
        elif self.partial and must["passed"] + must[PARTLY_CHECKED] == must.total:
            word = "passes every MUST that ran"
        else:
            word = "is not fully checked"
        if self.partial:
            word += f" ({self.partial_words()}; not a verdict on the profiles)"
        musts = ", ".join(p.musts() for p in self.profiles)
        return f"{self.implementation} {word}" + (f": {musts}" if musts else "")

    def level_lines(self) -> list[str]:
        """``MUST: 79/79 passed``: one line per level, the same in every run (for scripts)."""
        lines = []
        for level in LEVELS:
            line = f"{level}: {self.levels[level].fraction()}"
            if level != "MUST" and self.levels[level]["failed"] and not self.strict:
                line += " (a failed SHOULD or MAY fails the run only with --strict)"
            lines.append(line)
        return lines

    def lines(self) -> list[str]:
        """The verdict as the terminal prints it."""
        width = max((len(p.profile) for p in self.profiles), default=0)
        status_width = max(len(p.status) for p in self.profiles) if self.profiles else 0
        lines = [f"verdict: {self.headline()}"]
        for p in self.profiles:
            per_level = "; ".join(
                f"{level} {p.levels[level].fraction()}" for level in LEVELS if p.levels[level].total
            )
            lines.append(f"  {p.profile:<{width}}  {p.status:<{status_width}}  {per_level}")
        lines += self.level_lines()
        lines.append(f"examples: {self.examples.fraction()}")
        if self.probes.total:
            lines.append(f"  of which probes: {self.probes.fraction()}")
        if self.flaky:
            lines.append(
                f"declared flaky (timing decides; either outcome accepted): {len(self.flaky)} "
                f"example{'s' * (len(self.flaky) != 1)}: {', '.join(self.flaky)}"
            )
        if self.unconfirmed:
            count = len(self.unconfirmed)
            lines.append(
                f"declarations to confirm: {count} requirement{'s' * (count != 1)} declared "
                f"with a drafted reason (TO CONFIRM): {', '.join(self.unconfirmed)}"
                + ("" if self.strict else " (--strict fails on them)")
            )
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "headline": self.headline(),
            "partial": self.partial,
            "failing": list(self.failing),
            "levels": {level: self.levels[level].to_json() for level in LEVELS},
            "lines": self.level_lines(),
            "profiles": {
                p.profile: {
                    "status": p.status,
                    **{level: p.levels[level].to_json() for level in LEVELS},
                }
                for p in self.profiles
            },
            "examples": self.examples.to_json(),
            "probes": self.probes.to_json(),
            "unconfirmed": list(self.unconfirmed),
            "flaky": list(self.flaky),
        }


def judge(  # noqa: PLR0913 - every input is one fact the verdict rests on
    implementation: str,
    claimed: Iterable[str],
    requirements: Iterable[_Requirement],
    *,
    selection: Sequence[str] = (),
    strict: bool,
    interrupted: bool = False,
    outside: Iterable[_Example] = (),
    spec_warnings: str = "",
) -> Verdict:
    """The verdict on ``requirements`` (every requirement of the spec, with its outcome);
    ``selection`` says what made the run partial, if it was."""
    partial = bool(selection)
    claimed = tuple(p for p in PROFILES if p in set(claimed))
    records = list(requirements)
    judged = [
        r for r in records if r.profile in claimed and not (partial and r.outcome == "not-run")
    ]
    per_profile: dict[str, dict[str, Counter[str]]] = {}
    per_level: dict[str, Counter[str]] = {level: Counter() for level in LEVELS}
    for record in judged:
        levels = per_profile.setdefault(record.profile, {lv: Counter() for lv in LEVELS})
        levels[record.level][record.outcome] += 1
        per_level[record.level][record.outcome] += 1
    examples: Counter[str] = Counter(
        e.outcome for r in records for e in r.results if e.outcome != "not-run"
    )
    examples.update(e.outcome for e in outside if e.outcome != "not-run")
    probes: Counter[str] = Counter(
        e.outcome for r in records for e in r.results if e.outcome != "not-run" and e.probe
    )
    profiles = tuple(
        ProfileVerdict(p, {lv: Tally(dict(c)) for lv, c in per_profile[p].items()}, partial)
        for p in claimed
        if p in per_profile
    )
    drafted = _unconfirmed(records)
    return Verdict(
        implementation=implementation,
        claimed=claimed,
        selection=tuple(selection),
        strict=strict,
        profiles=profiles,
        levels={level: Tally(dict(per_level[level])) for level in LEVELS},
        examples=Tally(dict(examples), EXAMPLE_OUTCOMES),
        probes=Tally(dict(probes), EXAMPLE_OUTCOMES),
        failing=tuple(
            _failing(records, partial=partial, strict=strict, interrupted=interrupted)
            + _failing_outside(outside, spec_warnings)
            + (
                [f"declarations with a drafted reason to confirm (--strict): {', '.join(drafted)}"]
                if strict and drafted
                else []
            )
        ),
        unconfirmed=drafted,
        flaky=_flaky(records),
    )


def _unconfirmed(records: Iterable[_Requirement]) -> tuple[str, ...]:
    """The requirements the run counted as declared with a reason still a draft's."""
    return tuple(
        r.id
        for r in records
        if any(
            unconfirmed(declared_reason(r.id, e.example, e.outcome, e.message) or "")
            for e in r.results
        )
    )


def _flaky(records: Iterable[_Requirement]) -> tuple[str, ...]:
    """``R-1 example 2: passed``: each example declared flaky, with how it ended (under
    several schedules, each outcome once)."""
    found = {
        f"{r.id} example {e.example}: {e.outcome}": None
        for r in records
        for e in r.results
        if e.flaky and e.outcome != "not-run"
    }
    return tuple(found)


def _ids(records: Iterable[_Requirement]) -> str:
    return ", ".join(r.id for r in records)


def _failing(
    records: list[_Requirement], *, partial: bool, strict: bool, interrupted: bool
) -> list[str]:
    reasons = []
    must = [r for r in records if r.outcome == "failed" and r.level == "MUST"]
    if must:
        reasons.append(f"failed MUST requirements: {_ids(must)}")
    weaker = [r for r in records if r.outcome == "failed" and r.level != "MUST"]
    if weaker and strict:
        reasons.append(f"failed SHOULD or MAY requirements (--strict): {_ids(weaker)}")
    xpassed = [r for r in records if r.outcome == "xpassed"]
    if xpassed:
        reasons.append(
            "expected to fail but passed (remove them from the expected failures): " + _ids(xpassed)
        )
    not_run = [r for r in records if r.outcome == "not-run"]
    if not_run and not partial and not interrupted:
        reasons.append(
            "requirements with no example collected (check their examples' directives): "
            + _ids(not_run)
        )
    if interrupted:
        reasons.append("the run was interrupted")
    return reasons


def _failing_outside(outside: Iterable[_Example], spec_warnings: str) -> list[str]:
    reasons = []
    failed = sum(1 for e in outside if e.outcome == "failed")
    if failed:
        reasons.append(f"failed examples outside any requirement: {failed}")
    if spec_warnings.strip():
        reasons.append("Sphinx warned about the spec's documents (fix them)")
    return reasons
