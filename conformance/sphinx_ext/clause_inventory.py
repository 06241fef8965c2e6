"""Sphinx extension: ``.. clause-inventory::``, every clause of every MUST and how each is probed.

The inventory is data beside the documents (``clauses/<page>.toml``, read by
:mod:`conformance.catalog.clauses`); this directive renders it for a reader: a
count of the partitions met by an example, by a probe, set aside with a reason,
or left as an open gap, per dimension; the vocabulary of dimensions; then, page
by page, one table per rule: each clause as quoted from the rule, its
dimension, and per partition the marker of the example or probe that covers it,
the reason, or the open gap. Whether the markers still occur in the probes is
``tests/spec/test_clause_inventory.py``'s to check, not the build's.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conformance.catalog.clauses import CLAUSES_FOLDER, Clause, Coverage, InventoryError, load
from conformance.catalog.dimensions import COVERAGE_KINDS, DIMENSIONS
from conformance.sphinx_ext.tables import Cell, row

_KIND_HEADINGS = {"example": "example", "probe": "probe", "reason": "reasoned", "gap": "open gap"}


class ClauseInventoryDirective(SphinxDirective):
    """``.. clause-inventory::``: the tallies, the vocabulary and one table per MUST."""

    def run(self) -> list[nodes.Node]:
        folder = Path(self.env.srcdir) / CLAUSES_FOLDER
        for path in sorted(folder.glob("*.toml")):
            self.env.note_dependency(str(path))
        try:
            clauses = load(folder)
        except InventoryError as exc:
            raise self.error(f"clause inventory: {exc}") from None
        if not clauses:
            raise self.error(f"clause inventory: no clause in {folder}/*.toml")
        result: list[nodes.Node] = [self._tallies(clauses), self._vocabulary()]
        for page in dict.fromkeys(clause.page for clause in clauses):
            result.append(nodes.rubric("", f"{page}.rst", classes=["forkwait-clause-page"]))
            mine = [clause for clause in clauses if clause.page == page]
            for rule in dict.fromkeys(clause.rule for clause in mine):
                result.append(self._rule_table(rule, [c for c in mine if c.rule == rule]))
        return result

    def _tallies(self, clauses: list[Clause]) -> nodes.table:
        """Per dimension, how many partitions each kind of coverage meets; a last row sums."""
        rows: list[list[Cell]] = []
        for name in [*DIMENSIONS, "all"]:
            counts = dict.fromkeys(COVERAGE_KINDS, 0)
            for clause in clauses:
                if name in ("all", clause.dimension):
                    for coverage in clause.partitions.values():
                        counts[coverage.kind] += 1
            if sum(counts.values()) == 0:
                continue
            first: Cell = nodes.strong("", "all") if name == "all" else nodes.literal("", name)
            rows.append([first, *(str(counts[kind]) for kind in COVERAGE_KINDS)])
        heading = ["dimension", *(_KIND_HEADINGS[kind] for kind in COVERAGE_KINDS)]
        table = _table(["forkwait-clause-tallies"], (22, 12, 12, 12, 12), heading, rows)
        table.insert(0, nodes.title("", "Partitions of every clause, by how they are met"))
        return table

    def _vocabulary(self) -> nodes.table:
        rows: list[list[Cell]] = []
        for name, dimension in DIMENSIONS.items():
            listing = nodes.bullet_list()
            for partition, about in dimension.partitions.items():
                listing += nodes.list_item(
                    "",
                    nodes.paragraph("", "", nodes.literal("", partition), nodes.Text(": " + about)),
                )
            rows.append([nodes.literal("", name), dimension.about, [listing]])
        table = _table(
            ["forkwait-clause-vocabulary"],
            (16, 24, 60),
            ["dimension", "what it ranges over", "partitions"],
            rows,
        )
        table.insert(0, nodes.title("", "The dimensions and their partitions"))
        return table

    def _rule_table(self, rule: str, clauses: list[Clause]) -> nodes.table:
        rows: list[list[Cell]] = []
        for clause in clauses:
            quote: list[nodes.Node] = [
                nodes.paragraph(
                    "",
                    "\N{LEFT DOUBLE QUOTATION MARK}"
                    + clause.quote
                    + "\N{RIGHT DOUBLE QUOTATION MARK}",
                ),
                nodes.paragraph(
                    "", "", nodes.Text("dimension "), nodes.literal("", clause.dimension)
                ),
            ]
            for index, (name, coverage) in enumerate(clause.partitions.items()):
                rows.append(
                    [quote if index == 0 else "", nodes.literal("", name), _coverage(coverage)]
                )  # the empty cells of later rows go: the clause's cell spans them
        table = _table(
            ["forkwait-clause-inventory"], (34, 14, 52), ["clause", "partition", "covered by"], rows
        )
        _span_clauses(table, [len(clause.partitions) for clause in clauses])
        link, messages = self.state.inline_text(f":req:`{rule}`", self.lineno)
        gaps = sum(c.kind == "gap" for clause in clauses for c in clause.partitions.values())
        told = f" ({gaps} open gap{'s' if gaps != 1 else ''})" if gaps else ""
        table.insert(0, nodes.title("", "", *link, *messages, nodes.Text(told)))
        table["ids"].append(nodes.make_id(f"clauses-{rule}"))
        return table


def _span_clauses(table: nodes.table, sizes: list[int]) -> None:
    """Each clause's cell spans the rows of its partitions, so that a clause reads as one."""
    body = next(table.findall(nodes.tbody))
    rows = [child for child in body.children if isinstance(child, nodes.row)]
    start = 0
    for size in sizes:
        if size > 1:
            first = rows[start][0]
            assert isinstance(first, nodes.entry)  # row() makes entries only
            first["morerows"] = size - 1
            for later in rows[start + 1 : start + size]:
                later.remove(later[0])
        start += size


def _coverage(coverage: Coverage) -> list[nodes.Node]:
    """The cell of one partition: the marker and where it is, the reason, or the open gap."""
    if coverage.kind == "gap":
        text = nodes.paragraph("", "", nodes.strong("", "Open gap: "), nodes.Text(coverage.text))
        return [nodes.container("", text, classes=["forkwait-clause-gap"])]
    if coverage.kind == "reason":
        return [
            nodes.paragraph(
                "", "", nodes.emphasis("", "Does not apply: "), nodes.Text(coverage.text)
            )
        ]
    where = coverage.kind + (f" of {coverage.rule}" if coverage.rule else "")
    return [nodes.paragraph("", "", nodes.Text(where + ": "), nodes.literal("", coverage.text))]


def _table(
    classes: list[str], widths: Iterable[int], heading: list[str], rows: list[list[Cell]]
) -> nodes.table:
    widths = list(widths)
    table = nodes.table(classes=[*classes, "colwidths-given"])  # the widths below, not auto
    group = nodes.tgroup(cols=len(widths))
    table += group
    group += [nodes.colspec(colwidth=width) for width in widths]
    head = nodes.thead()
    head += row(*heading)
    body = nodes.tbody()
    for cells in rows:
        body += row(*cells)
    group += [head, body]
    return table


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("clause-inventory", ClauseInventoryDirective)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True
