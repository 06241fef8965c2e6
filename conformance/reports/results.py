"""Per-example and per-requirement outcomes of a run, folded from pytest's reports.

Every example keeps its own outcome, so an expected failure of one example
cannot hide a regression in another. A requirement's outcome is its worst
example's: a failure (of any kind: wrong output, an error, a hang, a crash)
beats an unexpected pass, which beats an expected failure, which beats a pass.
A requirement that passed with some of its examples skipped as declared is
*partly checked*, never "passed": what was not run was not checked. A
requirement with no result at all is "not run", never left out.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import pytest

from conformance.catalog.requirements import Requirement
from conformance.catalog.vocabulary import LEVELS

#: what an example can end with
EXAMPLE_OUTCOMES = ("passed", "failed", "xfailed", "xpassed", "skipped", "not-run")
#: passed, with some examples skipped as declared: a requirement's outcome, never an example's
PARTLY_CHECKED = "partly-checked"
#: what a requirement can end with: its worst example's outcome, or PARTLY_CHECKED
OUTCOMES = ("passed", PARTLY_CHECKED, *EXAMPLE_OUTCOMES[1:])
_SEVERITY = {"not-run": 0, "skipped": 1, "passed": 2, "xfailed": 3, "xpassed": 4, "failed": 5}
MESSAGE_LIMIT = 4000
#: the end of what an example printed that a report keeps (a cascade's cause is there)
OUTPUT_LIMIT = 2000
_OUTPUT_SECTION = "Captured executor output"
_XDIST_HEADER = re.compile(r"^\[gw\d+\] .* -- Python [^\n]*\n")
_XPASS_STRICT = "[XPASS(strict)]"


@dataclass
class ExampleResult:
    """One example (of one group, under one schedule or none): what happened to it."""

    nodeid: str
    requirement: str
    number: int
    group: str
    schedule: str
    outcome: str = "not-run"
    #: for a failure: output, exception, setup, cleanup, timeout, hang or crash
    kind: str = ""
    message: str = ""
    duration: float = 0.0
    #: the .rst line of its code's first line: the one its failure and JUnit name
    line: int = 0
    #: one of the requirement's probes (``.. probes::``), not one of its examples
    probe: bool = False
    #: for a failure: its cause in one line (run/diagnosis.py)
    cause: str = ""
    #: for a failure: the frame it was raised or hung at (reports/frames.py)
    where: str = ""
    #: for a failure: the adapter's own code raised it (reports/frames.py)
    adapter_error: bool = False
    #: the xdist worker that ran it ("" in a plain run)
    worker: str = ""
    #: which of its worker's executors ran it (1 for the first; 0 unknown)
    executor: int = 0
    #: its place in the order its worker ran examples (1 for the first; 0 unknown)
    order: int = 0
    #: the end of what its executor printed while it ran (OUTPUT_LIMIT characters)
    output: str = ""
    #: declared to depend on timing: a pass and the declared failure are both accepted
    flaky: bool = False


def item_outcome(report: pytest.TestReport) -> str | None:
    """The outcome a report settles for its item, or None if it settles nothing."""
    if report.failed:
        # a str, as pytest made it (longreprtext would start with xdist's worker line)
        strict_xpass = isinstance(report.longrepr, str) and report.longrepr.startswith(
            _XPASS_STRICT
        )
        return "xpassed" if strict_xpass else "failed"
    if report.skipped:
        return "xfailed" if hasattr(report, "wasxfail") else "skipped"
    if report.when == "call" and report.passed:
        return "xpassed" if hasattr(report, "wasxfail") else "passed"
    return None


def _printed(before: str, report: pytest.TestReport) -> str:
    """What the executor printed up to this phase's end (isolation.py's sections, which it
    indents), its last OUTPUT_LIMIT characters."""
    printed = "".join(
        textwrap.dedent(text)
        for title, text in report.sections
        if title.startswith(_OUTPUT_SECTION)
    )
    text = before + printed
    return text[-OUTPUT_LIMIT:]


def report_message(report: pytest.TestReport) -> str:
    """What a reader needs from a report: the failure text, or the skip/xfail reason."""
    wasxfail = str(getattr(report, "wasxfail", ""))
    if report.skipped and wasxfail:
        text = wasxfail
    elif report.skipped and isinstance(report.longrepr, tuple):
        text = str(report.longrepr[2]).removeprefix("Skipped: ")
    elif report.failed:
        text = report.longreprtext
    else:
        text = wasxfail
    text = _XDIST_HEADER.sub("", text, count=1)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "\n[...]"


@dataclass
class RunResults:
    """Everything the reports of a run said, per example, grouped by requirement."""

    catalog: Mapping[str, Requirement]
    examples: dict[str, ExampleResult] = field(default_factory=dict)

    def add(self, report: pytest.TestReport) -> None:
        props = {str(k): str(v) for k, v in report.user_properties}
        if "requirement" not in props and "example" not in props:
            return  # not an example of the spec (a plain test, or a setup-only group)
        result = self.examples.get(report.nodeid)
        if result is None:
            result = self.examples[report.nodeid] = ExampleResult(
                report.nodeid,
                props.get("requirement", ""),
                int(props.get("example") or 0),
                props.get("group", ""),
                props.get("schedule", ""),
                line=int(props.get("line") or 0),
                probe=props.get("kind") == "probe",
            )
        result.duration += report.duration
        result.worker = props.get("worker", result.worker)
        result.order = int(props.get("order") or result.order)
        result.executor = int(props.get("executor") or result.executor)
        result.output = _printed(result.output, report)
        outcome = item_outcome(report)
        if outcome is None:
            return
        result.flaky = props.get("expected") == "flaky"
        if result.flaky and outcome == "xpassed":
            outcome = "passed"  # as declared: its outcome depends on timing
        if _SEVERITY[outcome] > _SEVERITY[result.outcome] or (
            outcome == "failed" and result.outcome == "failed" and not result.kind
        ):
            result.outcome = outcome
            failing = outcome in ("failed", "xfailed")
            result.kind = props.get("failure_kind", "") if failing else ""
            result.cause = props.get("cause", "") if failing else ""
            result.where = props.get("where", "") if failing else ""
            result.adapter_error = failing and props.get("adapter_error") == "1"
            result.message = report_message(report)

    def of(self, requirement: str) -> list[ExampleResult]:
        return [r for r in self.examples.values() if r.requirement == requirement]

    def outside(self) -> list[ExampleResult]:
        return [r for r in self.examples.values() if not r.requirement]

    def outcome(self, requirement: str) -> str:
        return requirement_outcome(r.outcome for r in self.of(requirement))

    def worst(self, requirement: str) -> ExampleResult | None:
        results = self.of(requirement)
        return max(results, key=lambda r: _SEVERITY[r.outcome], default=None)

    def with_outcome(self, outcome: str, level: str | None = None) -> list[str]:
        return [
            req_id
            for req_id, requirement in self.catalog.items()
            if self.outcome(req_id) == outcome and (level is None or requirement.level == level)
        ]

    def by_profile(self, *, ran_only: bool = False) -> dict[tuple[str, str], Counter[str]]:
        """Per profile and level, how many requirements ended with each outcome
        (``ran_only``: leave out those that did not run, for a run narrowed by -k or -m)."""
        table: dict[tuple[str, str], Counter[str]] = {}
        for req_id, requirement in self.catalog.items():
            outcome = self.outcome(req_id)
            if not (ran_only and outcome == "not-run"):
                key = (requirement.profile, requirement.level)
                table.setdefault(key, Counter())[outcome] += 1
        return table


def declared_reason(requirement: str, number: int, outcome: str, message: str) -> str | None:
    """The reason example ``number`` was declared with, if the run counted it as declared:
    an expected failure's (it xfailed, or a flaky one passed) or a skips list's (the words
    run/spec_items.py gives: ``ID example N: not run (reason)``); else None."""
    said = " ".join(message.split())
    prefix = f"{requirement} example {number}: "
    if outcome in ("xfailed", "passed") and said.startswith(prefix):
        return said[len(prefix) :]
    if outcome == "skipped":
        skipped = re.fullmatch(rf"{re.escape(prefix)}not run \((.*)\)", said)
        return skipped.group(1) if skipped else None
    return None


def requirement_outcome(outcomes: Iterable[str]) -> str:
    """A requirement's outcome from its examples': the worst, except that a pass beside a
    skipped example is PARTLY_CHECKED (a requirement skipped whole is "skipped")."""
    found = set(outcomes)
    worst = max(found, key=_SEVERITY.__getitem__, default="not-run")
    return PARTLY_CHECKED if worst == "passed" and "skipped" in found else worst


#: what the table's outcome columns mean, in lines under it (pytest's words, and ours)
LEGEND = (
    "partly-checked = passed what ran, but some of its examples were skipped as declared; "
    "xfailed = failed as declared;",
    "xpassed = declared to fail but passed; "
    "not-run = no result (deselected, interrupted, or its examples never collected)",
)


def render_table(
    table: Mapping[tuple[str, str], Counter[str]], profiles: Iterable[str]
) -> list[str]:
    """A fixed-width table: one row per profile and level (as the verdict counts them:
    ``core MUST 46`` is its ``core 46/46 MUST``), one column per outcome, then one row per
    level for the whole run (``all MUST 82``: its ``MUST: 82/82 passed``), then the
    legend. A profile or level with no requirement in ``table`` has no row."""
    widths = {o: max(9, len(o) + 2) for o in OUTCOMES}
    header = f"{'profile':<10}{'level':<8}{'requirements':>12}" + "".join(
        f"{o:>{widths[o]}}" for o in OUTCOMES
    )

    def row(profile: str, level: str, counts: Counter[str]) -> str:
        cells = "".join(f"{counts[o]:>{widths[o]}}" for o in OUTCOMES)
        return f"{profile:<10}{level:<8}{sum(counts.values()):>12}{cells}"

    lines = [header, "-" * len(header)]
    total: dict[str, Counter[str]] = {}
    for profile in profiles:
        for level in LEVELS:
            counts = table.get((profile, level))
            if counts is not None:
                total.setdefault(level, Counter()).update(counts)
                lines.append(row(profile, level, counts))
    lines.append("-" * len(header))
    lines += [row("all", level, total[level]) for level in LEVELS if level in total]
    lines += LEGEND
    return lines
