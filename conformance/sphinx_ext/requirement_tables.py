"""Sphinx extension: tables made from the requirements the spec's boxes recorded.

``.. requirement-index::`` lists every rule with its level, profile, examples and
text; ``.. requirement-counts::`` is a table of how many requirements each profile
has at each level. Both are counted from the boxes at build time
(``conformance.sphinx_ext.requirements`` records them), so no page states a number
or a rule that the spec has outgrown.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conformance.catalog.nodes import requirement_node
from conformance.catalog.vocabulary import LEVELS, PROFILES
from conformance.sphinx_ext.requirements import link_to, recorded
from conformance.sphinx_ext.tables import row


class requirement_index_node(nodes.General, nodes.Element):
    """Placeholder replaced by the table of all requirements."""


class RequirementIndexDirective(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        return [requirement_index_node()]


class requirement_counts_node(nodes.General, nodes.Element):
    """Placeholder replaced by the table of requirement counts per profile and level."""


class RequirementCountsDirective(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        return [requirement_counts_node()]


def fill_counts(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Profile, what it covers, then one count per level and the total; a last row sums."""
    known = recorded(app.env).values()
    rows: list[list[str]] = []
    for profile, about in [*PROFILES.items(), ("all", "every profile")]:
        mine = [info for info in known if profile in ("all", info["profile"])]
        counts = [sum(1 for info in mine if info["level"] == level) for level in LEVELS]
        rows.append([profile, about, *map(str, counts), str(len(mine))])
    for placeholder in doctree.findall(requirement_counts_node):
        table = nodes.table(classes=["forkwait-requirement-counts"])
        group = nodes.tgroup(cols=len(LEVELS) + 3)
        table += group
        group += [nodes.colspec(colwidth=w) for w in (10, 50, *[8] * len(LEVELS), 8)]
        head = nodes.thead()
        head += row(nodes.Text("profile"), "covers", *LEVELS, "total")
        body = nodes.tbody()
        for profile, *cells in rows:
            first = nodes.strong("", profile) if profile == "all" else nodes.literal("", profile)
            body += row(first, *cells)
        group += [head, body]
        placeholder.replace_self(table)


def fill_index(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    known = recorded(app.env)
    for placeholder in doctree.findall(requirement_index_node):
        table = nodes.table(classes=["forkwait-requirement-index"])
        group = nodes.tgroup(cols=5)
        table += group
        for width in (22, 8, 10, 8, 52):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += row(nodes.Text("ID"), "level", "profile", "examples", "rule")
        group += head
        body = nodes.tbody()
        for req_id, info in sorted(known.items()):
            body += row(
                link_to(app, docname, req_id),
                info["level"],
                info["profile"],
                str(info["examples"]) + (f" (+{info['probes']} probes)" if info["probes"] else ""),
                _rule_body(app, info),
            )
        group += body
        placeholder.replace_self(table)


def _rule_body(app: Sphinx, info: dict[str, Any]) -> list[nodes.Node]:
    """The rule's rendered text (markup and all), copied from its box."""
    doctree = app.env.get_doctree(info["docname"])
    for box in doctree.findall(requirement_node):
        if info["target"] in box["ids"]:
            copies = [child.deepcopy() for child in box.children[1:]]
            for copy in copies:  # cross-references stay text: this doctree is resolved already
                for xref in list(copy.findall(addnodes.pending_xref)):
                    xref.replace_self(xref.children)
            return copies
    return [nodes.paragraph("", info["text"])]


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("requirement-index", RequirementIndexDirective)
    app.add_node(requirement_index_node)
    app.add_directive("requirement-counts", RequirementCountsDirective)
    app.add_node(requirement_counts_node)
    app.connect("doctree-resolved", fill_counts)
    app.connect("doctree-resolved", fill_index)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
