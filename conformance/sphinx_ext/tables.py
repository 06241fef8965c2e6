"""Rows of the tables the spec's extensions generate, built one way.

docutils wants each table entry to hold body elements (paragraphs, lists); the
extensions fill cells with plain text, inline nodes (a link, a literal) or body
elements copied from elsewhere. :func:`row` wraps each kind as it needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes

#: a cell: a text, an inline node, inline nodes (one paragraph), or body elements kept as given
Cell = str | nodes.Node | Sequence[nodes.Node]


def row(*cells: Cell) -> nodes.row:
    """A table row of ``cells``: text and inline nodes go into a paragraph of their cell;
    body elements (paragraphs, lists) are the cell's content as they are."""
    table_row = nodes.row()
    for cell in cells:
        items: list[nodes.Node] = (
            [nodes.Text(cell)]
            if isinstance(cell, str)
            else [cell]
            if isinstance(cell, nodes.Node)
            else list(cell)
        )
        entry = nodes.entry()
        if items and not any(isinstance(item, (nodes.Inline, nodes.Text)) for item in items):
            entry += items  # body elements
        else:
            entry += nodes.paragraph("", "", *items)
        table_row += entry
    return table_row
