"""Side-by-side results: requirement x implementation, as Markdown or reStructuredText.

``forkwait-conformance matrix a.json b.json`` prints it; the spec's
``.. conformance-matrix::`` directive (conformance/sphinx_ext/matrix.py) draws the
same rows, runs and totals as coloured HTML tables. Both read what is here, so
the terminal and the docs never disagree about a cell. What a report says in
its own words (the implementation's name and version, the suite's version,
the date, a reason) is escaped for Markdown or reST, in one line: a report
cannot add a row, a column or markup to the table (its IDs, profiles, levels,
outcomes and kinds are checked against the schema when it is read). Under the
matrix, each run's declarations (its expected failures, flaky examples and
skips) with the reason each was declared with: a cell that is not "pass"
says why only there.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from conformance.catalog.vocabulary import PROFILES
from conformance.reports.json_report import RequirementRecord, RunReport
from conformance.reports.results import OUTCOMES, PARTLY_CHECKED

#: A requirement of a claimed profile that the adapter said not to run (a known hang).
ADAPTER_SKIP = "skipped-by-adapter"
#: What a cell says for each outcome; a requirement with no result says "not run".
CELL = {
    "passed": "pass",
    PARTLY_CHECKED: "partly checked",
    "failed": "**FAIL**",
    "xfailed": "expected failure",
    "xpassed": "**unexpected pass**",
    "skipped": "skipped (profile)",
    ADAPTER_SKIP: "skipped (adapter)",
    "not-run": "not run",
}
#: Cells in the order totals list them: the run's outcomes, a skip split by its cause.
_SKIPPED = OUTCOMES.index("skipped")
SHOWN = (*OUTCOMES[:_SKIPPED], ADAPTER_SKIP, *OUTCOMES[_SKIPPED:])
#: The outcome of a requirement a report has no record of.
MISSING = "not-run"
#: Outcomes whose examples carry a kind of failure worth showing in the cell.
FAILING = ("failed", "xfailed")
#: Markdown's characters with a meaning inside a table cell (each may be backslash-escaped)
_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>|~&!#")
#: a report's text as a Markdown or reST cell (``one_line`` alone: as plain text)
Escape = Callable[[str], str]


def one_line(text: str) -> str:
    """``text`` as one line of printable characters: whitespace runs become one space,
    other control characters go (a cell, a header or a terminal line stays one)."""
    return "".join(ch for ch in " ".join(text.split()) if ch.isprintable())


def markdown_text(text: str) -> str:
    """``text`` as literal Markdown, in one line (a ``|`` cannot end the cell)."""
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIAL else ch for ch in one_line(text))


def rst_text(text: str) -> str:
    """``text`` as literal reST, in one line: every punctuation mark backslash-escaped,
    so that no role, reference, substitution, list or comment can start."""
    return "".join("\\" + ch if ch in string.punctuation else ch for ch in one_line(text))


def column(report: RunReport, escape: Escape = one_line) -> str:
    """An implementation's column header: its name and version."""
    return escape(f"{report.implementation} {report.implementation_version}")


def when(report: RunReport) -> str:
    """When the run was recorded, to the minute, in UTC as recorded (``created``)."""
    try:
        created = datetime.fromisoformat(report.created)
    except ValueError:  # a hand-edited report: show what it says
        return report.created
    return created.strftime("%Y-%m-%d %H:%M") + (" UTC" if created.utcoffset() is not None else "")


def shown(record: RequirementRecord, report: RunReport) -> str:
    """The record's outcome, a skip of a claimed profile told apart as ADAPTER_SKIP."""
    if record.outcome == "skipped" and record.profile in report.profiles:
        return ADAPTER_SKIP
    return record.outcome


@dataclass(frozen=True)
class Cell:
    """One implementation's result for one requirement."""

    outcome: str
    #: what qualifies the outcome: the failure kinds of its failed examples (output,
    #: exception, timeout, ...), how much of a partly checked one was skipped, or ""
    detail: str = ""
    #: the recorded reason (an expected failure's or skip's) or failure message
    reason: str = ""

    @property
    def text(self) -> str:
        """What the cell says: ``**FAIL** (timeout)``, ``expected failure (output)``,
        ``partly checked (2 of 3 examples skipped)``."""
        label = CELL.get(self.outcome, self.outcome)
        return f"{label} ({self.detail})" if self.detail else label


@dataclass(frozen=True)
class Row:
    """A requirement, its profile and level, and one cell per report."""

    id: str
    profile: str
    level: str
    cells: list[Cell]


def failure_kind(record: RequirementRecord) -> str:
    """The kinds of failure of a requirement's failed examples, each once, in example order."""
    kinds = [e.kind for e in record.results if e.outcome in FAILING and e.kind]
    return ", ".join(dict.fromkeys(kinds))


def cell(record: RequirementRecord | None, report: RunReport) -> Cell:
    """``report``'s cell for a requirement (``record``, or None where it has no record)."""
    if record is None:
        return Cell(MISSING)
    outcome = shown(record, report)
    reason = " ".join(record.message.split())
    if outcome == PARTLY_CHECKED:
        return Cell(outcome, record.in_part(), reason)
    return Cell(outcome, failure_kind(record) if outcome in FAILING else "", reason)


def matrix_outcomes(reports: Sequence[RunReport]) -> list[Row]:
    """One row per requirement, in the first report's order, one cell per report."""
    known: dict[str, RequirementRecord] = {}
    for report in reports:
        for record in report.requirements:
            known.setdefault(record.id, record)
    tables = [report.by_id() for report in reports]
    return [
        Row(
            i,
            r.profile,
            r.level,
            [cell(t.get(i), rep) for t, rep in zip(tables, reports, strict=True)],
        )
        for i, r in known.items()
    ]


def matrix_rows(
    reports: Sequence[RunReport], escape: Escape = one_line
) -> tuple[list[str], list[list[str]]]:
    """Header and rows: requirement, profile, level, then one cell per implementation."""
    header = ["requirement", "profile", "level"] + [column(r, escape) for r in reports]
    rows = [
        [r.id, r.profile, r.level] + [c.text for c in r.cells] for r in matrix_outcomes(reports)
    ]
    return header, rows


def profile_totals(report: RunReport) -> dict[str, Counter[str]]:
    """Per profile (and ``all``), how many requirements had each outcome."""
    totals: dict[str, Counter[str]] = {profile: Counter() for profile in PROFILES}
    for record in report.requirements:
        totals.setdefault(record.profile, Counter())[shown(record, report)] += 1
    totals["all"] = sum(totals.values(), Counter())
    return totals


def describe_totals(counts: Counter[str]) -> str:
    """``12 pass, 2 expected failure``: the outcomes that occurred, in SHOWN order."""
    parts = [f"{counts[o]} {CELL[o].strip('*')}" for o in SHOWN if counts[o]]
    return ", ".join(parts) or "none"


def runs_rows(
    reports: Sequence[RunReport], escape: Escape = one_line
) -> tuple[list[str], list[list[str]]]:
    """One row per run: implementation, profiles claimed, suite version, date, completeness."""
    header = ["implementation", "profiles claimed", "suite", "recorded", "run"]
    rows = [
        [
            column(r, escape),
            ", ".join(r.profiles),
            escape(r.suite_version),
            escape(when(r)),
            "complete" if r.complete and not r.interrupted else "incomplete",
        ]
        for r in reports
    ]
    return header, rows


def totals_rows(
    reports: Sequence[RunReport], escape: Escape = one_line
) -> tuple[list[str], list[list[str]]]:
    """One row per profile (then ``all``), one cell of outcome counts per implementation."""
    header = ["profile"] + [column(r, escape) for r in reports]
    totals = [profile_totals(r) for r in reports]
    rows = [[p] + [describe_totals(t[p]) for t in totals] for p in [*PROFILES, "all"]]
    return header, rows


#: what a declared example's outcome says it was declared as
DECLARED_AS = {"xfailed": "expected failure", "passed": "flaky", "skipped": "skip"}


@dataclass(frozen=True)
class Declaration:
    """A requirement's examples declared alike in one run, and the reason given."""

    requirement: str
    #: DECLARED_AS's words (a flaky example that failed is "flaky" too)
    declared: str
    examples: tuple[int, ...]
    reason: str


def declarations(report: RunReport) -> list[Declaration]:
    """Every declaration the run counted, in the spec's order: each requirement's declared
    examples, by how they were declared and with what reason."""
    found = []
    for record in report.requirements:
        by_kind: dict[tuple[str, str], list[int]] = {}
        for example in record.results:
            reason = record.declared(example)
            if reason is None or example.outcome not in DECLARED_AS:
                continue
            declared = "flaky" if example.flaky else DECLARED_AS[example.outcome]
            numbers = by_kind.setdefault((declared, reason), [])
            if example.example not in numbers:
                numbers.append(example.example)
        found += [
            Declaration(record.id, declared, tuple(sorted(numbers)), reason)
            for (declared, reason), numbers in by_kind.items()
        ]
    return found


def declarations_rows(
    reports: Sequence[RunReport], escape: Escape = one_line
) -> tuple[list[str], list[list[str]]]:
    """One row per declaration of each run: what it declares, and its reason."""
    header = ["implementation", "requirement", "declared", "examples", "reason"]
    rows = [
        [
            column(report, escape),
            d.requirement,
            d.declared,
            ", ".join(map(str, d.examples)),
            escape(d.reason),
        ]
        for report in reports
        for d in declarations(report)
    ]
    return header, rows


def _markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """The table, then an empty line."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines.append("")
    return lines


def to_markdown(reports: Sequence[RunReport]) -> str:
    """The runs, the per-profile totals, then the requirement x implementation matrix."""
    escape = markdown_text
    lines = _markdown_table(*runs_rows(reports, escape))
    lines += _markdown_table(*totals_rows(reports, escape))
    lines += _markdown_table(*matrix_rows(reports, escape))
    header, rows = declarations_rows(reports, escape)
    if rows:
        lines += _markdown_table(header, rows)
    return "\n".join(lines).rstrip("\n") + "\n"


def _list_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A ``list-table`` (robust to cell widths)."""
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: auto", ""]
    for row in [header, *rows]:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {cell}" for cell in row[1:]]
    lines.append("")
    return lines


def to_rst(reports: Sequence[RunReport]) -> str:
    """The same three tables as ``list-table`` directives, requirement IDs as :req: links."""
    header, rows = matrix_rows(reports, rst_text)
    linked = [[f":req:`{row[0]}`", *row[1:]] for row in rows]
    lines = _list_table(*runs_rows(reports, rst_text)) + _list_table(
        *totals_rows(reports, rst_text)
    )
    lines += _list_table(header, linked)
    declared_header, declared = declarations_rows(reports, rst_text)
    if declared:
        lines += _list_table(declared_header, declared)
    return "\n".join(lines).rstrip("\n") + "\n"


def details(reports: Sequence[RunReport]) -> list[tuple[RunReport, list[tuple[str, Cell]]]]:
    """Per implementation, every requirement it did not pass (nor skip for its profile)."""
    result = []
    for report in reports:
        cells = [(r.id, cell(r, report)) for r in report.requirements]
        notable = [(i, c) for i, c in cells if c.outcome not in ("passed", "skipped")]
        if notable:
            result.append((report, notable))
    return result


def reason_anchor(report: RunReport, req_id: str) -> str:
    """The HTML id of the reason behind ``report``'s cell for ``req_id``."""
    return "why-" + "-".join(
        "".join(ch if ch.isalnum() else "-" for ch in part.lower())
        for part in (report.implementation, req_id)
    )
