"""The docs' ``.. conformance-matrix::``: recorded runs side by side, coloured by outcome.

``.. conformance-matrix:: a.json b.json`` (paths relative to the document)
draws, from ``--report`` files: which run each column is (suite version and
date), the totals per profile, the requirement x implementation matrix, and
with ``:details:`` the reason behind every cell that is not a pass. Rows,
totals and wording come from :mod:`conformance.reports.matrix`, as the terminal's
``forkwait-conformance matrix`` prints them.

The tables are built as docutils nodes rather than reST text because a cell's
colour is a class on its ``<td>``, which reST tables cannot set; the colours
are in ``conf/_static/forkwait.css``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conformance.catalog.vocabulary import PROFILES
from conformance.reports.json_report import ReportError, RunReport, read_report
from conformance.reports.matrix import (
    CELL,
    SHOWN,
    column,
    details,
    matrix_outcomes,
    profile_totals,
    reason_anchor,
    runs_rows,
)

#: outcomes whose cell links to the reason recorded for it
EXPLAINED = ("partly-checked", "failed", "xfailed", "xpassed", "skipped-by-adapter")

Cell = str | nodes.Node | list[nodes.Node]


def chip(outcome: str, text: str | None = None) -> nodes.inline:
    """An outcome's label, coloured as its matrix cells are."""
    label = CELL.get(outcome, outcome).strip("*") if text is None else text
    return nodes.inline("", label, classes=["forkwait-chip", f"forkwait-outcome-{outcome}"])


def entry(content: Cell, classes: Sequence[str] = ()) -> nodes.entry:
    cell = nodes.entry(classes=list(classes))
    if isinstance(content, str):
        cell += nodes.paragraph("", content)
    elif isinstance(content, list):
        cell += nodes.paragraph("", "", *content)
    else:
        cell += content if isinstance(content, nodes.Body) else nodes.paragraph("", "", content)
    return cell


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[nodes.entry]],
    kind: str,
    row_ids: Sequence[str] = (),
) -> nodes.table:
    """A table with a header row; ``kind`` names it for the stylesheet, ``row_ids`` its rows."""
    # colwidths-auto: columns as wide as their content, not equal shares of the page
    result = nodes.table(classes=["forkwait-results", f"forkwait-results-{kind}", "colwidths-auto"])
    group = nodes.tgroup(cols=len(header))
    result += group
    group += [nodes.colspec(colwidth=1) for _ in header]
    head = nodes.thead()
    head += nodes.row("", *[entry(text) for text in header])
    body = nodes.tbody()
    ids = [[i] for i in row_ids] or [[] for _ in rows]
    body += [nodes.row("", *row, ids=i) for row, i in zip(rows, ids, strict=True)]
    group += [head, body]
    return result


class ConformanceMatrixDirective(SphinxDirective):
    required_arguments = 1
    optional_arguments = 20
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"details": directives.flag}

    def run(self) -> list[nodes.Node]:
        reports = [self._read(argument) for argument in self.arguments]
        container = nodes.container(classes=["forkwait-matrix"])
        container += nodes.rubric("", "The runs")
        header, rows = runs_rows(reports)
        container += table(header, [[entry(cell) for cell in row] for row in rows], "runs")
        container += nodes.rubric("", "Totals per profile")
        container += self._totals(reports)
        container += nodes.rubric("", "Requirement by requirement")
        container += self._legend()
        container += self._matrix(reports)
        if "details" in self.options:
            container += nodes.rubric("", "Why a requirement is not passed")
            container += self._details(reports)
        return [container]

    def _details(self, reports: Sequence[RunReport]) -> list[nodes.Node]:
        """Per implementation, a list of the cells not passed, each with its reason and an id."""
        result: list[nodes.Node] = []
        for report, notable in details(reports):
            result.append(nodes.paragraph("", "", nodes.strong("", column(report))))
            items = nodes.bullet_list()
            for req_id, cell in notable:
                item = nodes.list_item(ids=[reason_anchor(report, req_id)])
                link, messages = self.state.inline_text(f":req:`{req_id}`", self.lineno)
                # a partly checked one's reason starts with its detail: said once
                said = bool(cell.detail) and cell.reason.startswith(cell.detail)
                label = CELL.get(cell.outcome, cell.outcome) if said else cell.text
                text = f" ({label.replace('**', '')}): {cell.reason or '(no message)'}"
                item += nodes.paragraph("", "", *link, nodes.Text(text), *messages)
                items += item
            result.append(items)
        return result

    def _read(self, argument: str) -> RunReport:
        _, path = self.env.relfn2path(argument, self.env.docname)
        self.env.note_dependency(path)
        try:
            return read_report(Path(path))
        except ReportError as exc:
            raise self.error(str(exc)) from exc

    def _totals(self, reports: Sequence[RunReport]) -> nodes.table:
        totals = [profile_totals(report) for report in reports]
        rows = []
        for profile in [*PROFILES, "all"]:
            row = [entry(nodes.strong("", profile) if profile == "all" else profile)]
            for counts in totals:
                chips: list[nodes.Node] = []
                for outcome in SHOWN:
                    if counts[profile][outcome]:
                        label = f"{counts[profile][outcome]} {CELL[outcome].strip('*')}"
                        chips += [chip(outcome, label), nodes.Text(" ")]
                row.append(entry(chips or "none"))
            rows.append(row)
        return table(["profile"] + [column(r) for r in reports], rows, "totals")

    def _legend(self) -> nodes.paragraph:
        legend = nodes.paragraph(classes=["forkwait-legend"])
        for outcome in SHOWN:
            legend += [chip(outcome), nodes.Text(" ")]
        return legend

    def _matrix(self, reports: Sequence[RunReport]) -> nodes.table:
        rows, anchors = [], []
        std = self.env.get_domain("std")
        for row in matrix_outcomes(reports):
            link, messages = self.state.inline_text(f":req:`{row.id}`", self.lineno)
            # profile and level under the ID, not in columns of their own: so five engines
            # fit the page's column beside it (tests/spec/test_html_in_browser.py looks)
            about = nodes.inline("", f"{row.profile} · {row.level}", classes=["forkwait-kind"])
            cells = [entry([*link, *messages, about])]
            for report, cell in zip(reports, row.cells, strict=True):
                # the kind of failure (or the part skipped) on a line of its own, so that
                # five engines fit a page
                outcome = CELL.get(cell.outcome, cell.outcome).strip("*")
                label: list[nodes.Node] = [nodes.Text(outcome)]
                if cell.detail:
                    label.append(nodes.inline("", cell.detail, classes=["forkwait-kind"]))
                text: Cell = label
                if cell.outcome in EXPLAINED and "details" in self.options:
                    why = reason_anchor(report, row.id)
                    text = [nodes.reference("", "", *label, internal=True, refuri="#" + why)]
                classes = ["forkwait-cell", f"forkwait-outcome-{cell.outcome}"]
                cells.append(entry(text, classes))
            anchor = nodes.make_id(f"matrix-{row.id}")
            # a label, so that each requirement's box on its page can link to its row here
            std.anonlabels[anchor] = (self.env.docname, anchor)  # type: ignore[attr-defined]
            rows.append(cells)
            anchors.append(anchor)
        header = ["requirement (profile · level)"] + [column(r) for r in reports]
        return table(header, rows, "matrix", anchors)


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("conformance-matrix", ConformanceMatrixDirective)
    # the adapters behind the matrix, shown from their own files (docs/validating.rst)
    app.setup_extension("conformance.sphinx_ext.adapter_docs")
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
