"""Side-by-side results: requirement x implementation, as Markdown or reStructuredText.

``forkwait-conformance matrix a.json b.json`` prints it; the spec's
``.. conformance-matrix::`` directive renders the same rst table in the docs.
"""

from __future__ import annotations

from collections.abc import Sequence

from conformance.report import RunReport

#: What a cell says for each outcome; a requirement with no result says "not run".
CELL = {
    "passed": "pass",
    "failed": "**FAIL**",
    "xfailed": "expected failure",
    "xpassed": "**unexpected pass**",
    "skipped": "skipped (profile)",
}
NOT_RUN = "not run"


def matrix_rows(reports: Sequence[RunReport]) -> tuple[list[str], list[list[str]]]:
    """Header and rows: requirement, profile, then one cell per implementation."""
    order: list[str] = []
    profiles: dict[str, str] = {}
    for report in reports:
        for record in report.requirements:
            if record.id not in profiles:
                order.append(record.id)
                profiles[record.id] = record.profile
    header = ["requirement", "profile"] + [
        f"{r.implementation} {r.implementation_version}" for r in reports
    ]
    tables = [report.by_id() for report in reports]
    rows = [
        [req_id, profiles[req_id]]
        + [CELL[t[req_id].outcome] if req_id in t else NOT_RUN for t in tables]
        for req_id in order
    ]
    return header, rows


def to_markdown(reports: Sequence[RunReport]) -> str:
    header, rows = matrix_rows(reports)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def to_rst(reports: Sequence[RunReport]) -> str:
    """A ``list-table`` (robust to cell widths), requirement IDs as :req: links."""
    header, rows = matrix_rows(reports)
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: auto", ""]
    for index, row in enumerate([header, *rows]):
        cells = row if index == 0 else [f":req:`{row[0]}`", *row[1:]]
        lines.append(f"   * - {cells[0]}")
        lines += [f"     - {cell}" for cell in cells[1:]]
    return "\n".join(lines) + "\n"


def details_rst(reports: Sequence[RunReport]) -> str:
    """Per implementation, every requirement it did not pass, with the recorded reason."""
    lines: list[str] = []
    for report in reports:
        notable = [r for r in report.requirements if r.outcome not in ("passed", "skipped")]
        if not notable:
            continue
        lines += [f"**{report.implementation} {report.implementation_version}**", ""]
        for record in notable:
            reason = " ".join(record.message.split()) or "(no message)"
            lines.append(f"- :req:`{record.id}` ({CELL[record.outcome]}): {reason}")
        lines.append("")
    return "\n".join(lines)
