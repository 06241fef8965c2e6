"""Per-requirement outcomes of a run, folded from pytest's reports into a table."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import pytest

OUTCOMES = ("passed", "failed", "xfailed", "xpassed", "skipped")
# A requirement is as bad as its worst example. An expected failure is
# "xfailed" once any of its examples fails, "xpassed" (an unexpected pass, which
# fails the run) only when all of them pass.
_SEVERITY = {"skipped": 0, "passed": 1, "xpassed": 2, "xfailed": 3, "failed": 4}


def item_outcome(report: pytest.TestReport) -> str | None:
    """The outcome a report settles for its item, or None if it settles nothing."""
    if report.failed:
        return "failed"
    if report.skipped:
        return "xfailed" if hasattr(report, "wasxfail") else "skipped"
    if report.when == "call" and report.passed:
        return "xpassed" if hasattr(report, "wasxfail") else "passed"
    return None


MESSAGE_LIMIT = 4000
_XDIST_HEADER = re.compile(r"^\[gw\d+\] .* -- Python [^\n]*\n")


def report_message(report: pytest.TestReport) -> str:
    """What a reader needs from a report: the failure text, or the skip/xfail reason."""
    wasxfail = getattr(report, "wasxfail", "")
    if report.skipped and isinstance(report.longrepr, tuple):
        text = str(report.longrepr[2]).removeprefix("Skipped: ")
    elif report.failed:
        text = report.longreprtext
    else:
        text = str(wasxfail)
    if report.skipped and wasxfail:
        text = str(wasxfail)
    text = _XDIST_HEADER.sub("", text, count=1)
    requirement = str(dict(report.user_properties).get("requirement") or "")
    text = text.removeprefix(f"{requirement}: ") if requirement else text
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "\n[...]"


@dataclass
class RequirementResults:
    #: requirement ID -> profile, for requirements known before any report arrives
    profiles: dict[str, str] = field(default_factory=dict)
    outcomes: dict[str, str] = field(default_factory=dict)
    durations: dict[str, float] = field(default_factory=dict)
    #: the message of the report that settled the requirement's outcome
    messages: dict[str, str] = field(default_factory=dict)
    examples: dict[str, set[str]] = field(default_factory=dict)

    def add(self, report: pytest.TestReport) -> None:
        props: Mapping[str, object] = dict(report.user_properties)
        requirement = str(props.get("requirement") or "")
        profile = str(props.get("profile") or "")
        if not requirement:
            return
        self.durations[requirement] = self.durations.get(requirement, 0.0) + report.duration
        outcome = item_outcome(report)
        if outcome is None:
            return
        self.examples.setdefault(requirement, set()).add(report.nodeid)
        if profile or requirement not in self.profiles:
            self.profiles[requirement] = profile
        previous = self.outcomes.get(requirement)
        if previous is None or _SEVERITY[outcome] > _SEVERITY[previous]:
            self.outcomes[requirement] = outcome
            self.messages[requirement] = report_message(report)

    def with_outcome(self, outcome: str) -> list[str]:
        return sorted(r for r, o in self.outcomes.items() if o == outcome)

    def by_profile(self) -> dict[str, Counter[str]]:
        table: dict[str, Counter[str]] = {}
        for requirement, outcome in self.outcomes.items():
            table.setdefault(self.profiles[requirement], Counter())[outcome] += 1
        return table


def render_table(table: Mapping[str, Counter[str]], profiles: Iterable[str]) -> list[str]:
    """A fixed-width table: one row per profile, one column per outcome."""
    header = f"{'profile':<10}{'requirements':>14}" + "".join(f"{o:>10}" for o in OUTCOMES)
    lines = [header, "-" * len(header)]
    total: Counter[str] = Counter()
    for profile in profiles:
        counts = table.get(profile, Counter())
        total.update(counts)
        lines.append(
            f"{profile:<10}{sum(counts.values()):>14}"
            + "".join(f"{counts[o]:>10}" for o in OUTCOMES)
        )
    lines.append("-" * len(header))
    lines.append(
        f"{'all':<10}{sum(total.values()):>14}" + "".join(f"{total[o]:>10}" for o in OUTCOMES)
    )
    return lines
