"""Side-by-side results: requirement x implementation, as Markdown or reStructuredText.

``forkwait-conformance matrix a.json b.json`` prints it; the spec's
``.. conformance-matrix::`` directive (conformance/sphinx_ext/matrix.py) draws the
same rows, runs and totals as coloured HTML tables. Both read what is here, so
the terminal and the docs never disagree about a cell.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from conformance.catalog.vocabulary import PROFILES
from conformance.reports.json_report import RequirementRecord, RunReport
from conformance.reports.results import OUTCOMES

#: A requirement of a claimed profile that the adapter said not to run (a known hang).
ADAPTER_SKIP = "skipped-by-adapter"
#: What a cell says for each outcome; a requirement with no result says "not run".
CELL = {
    "passed": "pass",
    "failed": "**FAIL**",
    "xfailed": "expected failure",
    "xpassed": "**unexpected pass**",
    "skipped": "skipped (profile)",
    ADAPTER_SKIP: "skipped (adapter)",
    "not-run": "not run",
}
#: Cells in the order totals list them: the run's outcomes, a skip split by its cause.
SHOWN = (*OUTCOMES[:4], ADAPTER_SKIP, *OUTCOMES[4:])
NOT_RUN = "not run"
#: The outcome of a requirement a report has no record of.
MISSING = "not-run"


def column(report: RunReport) -> str:
    """An implementation's column header: its name and version."""
    return f"{report.implementation} {report.implementation_version}"


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


def matrix_outcomes(reports: Sequence[RunReport]) -> list[tuple[str, str, list[str]]]:
    """Requirement, profile and one outcome per report, in the first report's order."""
    order: list[str] = []
    profiles: dict[str, str] = {}
    for report in reports:
        for record in report.requirements:
            if record.id not in profiles:
                order.append(record.id)
                profiles[record.id] = record.profile
    tables = [{r.id: shown(r, report) for r in report.requirements} for report in reports]
    return [(i, profiles[i], [t.get(i, MISSING) for t in tables]) for i in order]


def matrix_rows(reports: Sequence[RunReport]) -> tuple[list[str], list[list[str]]]:
    """Header and rows: requirement, profile, then one cell per implementation."""
    header = ["requirement", "profile"] + [column(r) for r in reports]
    rows = [
        [req_id, profile] + [CELL.get(o, o) for o in outcomes]
        for req_id, profile, outcomes in matrix_outcomes(reports)
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


def runs_rows(reports: Sequence[RunReport]) -> tuple[list[str], list[list[str]]]:
    """One row per run: implementation, profiles claimed, suite version, date, completeness."""
    header = ["implementation", "profiles claimed", "suite", "recorded", "run"]
    rows = [
        [
            column(r),
            ", ".join(r.profiles),
            r.suite_version,
            when(r),
            "complete" if r.complete and not r.interrupted else "incomplete",
        ]
        for r in reports
    ]
    return header, rows


def totals_rows(reports: Sequence[RunReport]) -> tuple[list[str], list[list[str]]]:
    """One row per profile (then ``all``), one cell of outcome counts per implementation."""
    header = ["profile"] + [column(r) for r in reports]
    totals = [profile_totals(r) for r in reports]
    rows = [[p] + [describe_totals(t[p]) for t in totals] for p in [*PROFILES, "all"]]
    return header, rows


def _markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """The table, then an empty line."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines.append("")
    return lines


def to_markdown(reports: Sequence[RunReport]) -> str:
    """The runs, the per-profile totals, then the requirement x implementation matrix."""
    lines = _markdown_table(*runs_rows(reports)) + _markdown_table(*totals_rows(reports))
    return "\n".join(lines + _markdown_table(*matrix_rows(reports))).rstrip("\n") + "\n"


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
    header, rows = matrix_rows(reports)
    linked = [[f":req:`{row[0]}`", *row[1:]] for row in rows]
    lines = _list_table(*runs_rows(reports)) + _list_table(*totals_rows(reports))
    return "\n".join(lines + _list_table(header, linked)).rstrip("\n") + "\n"


def details_rst(reports: Sequence[RunReport]) -> str:
    """Per implementation, every requirement it did not pass, with the recorded reason."""
    lines: list[str] = []
    for report in reports:
        notable = [r for r in report.requirements if shown(r, report) not in ("passed", "skipped")]
        if not notable:
            continue
        lines += [f"**{column(report)}**", ""]
        for record in notable:
            reason = " ".join(record.message.split()) or "(no message)"
            label = CELL[shown(record, report)]
            lines.append(f"- :req:`{record.id}` ({label}): {reason}")
        lines.append("")
    return "\n".join(lines)
