"""Sphinx extension: ``.. probes:: ID``, the folded section that probes a requirement.

A requirement's examples show its rule in a case a reader can follow at a
glance; its *probes* carry the rigour: every waiter, any depth, every mix of
arguments, every phase of a future, concurrency. They are ordinary doctest
blocks (``testcode``/``testoutput``), so they run wherever the examples run
(``sphinx-build -b doctest``, the conformance suite, through the adapter, under
a deadline) and count as the requirement's examples, numbered after them.

Every block inside takes the group ``probe:ID`` (a block that names a group of
its own is refused): the probes share a namespace with each other, not with the
page's examples, so a run without probes (``forkwait-conformance --quick``)
never has to replay them to rebuild an example's namespace.

In HTML the section is a ``<details>`` element, closed, headed "How this rule is
probed", below the requirement's examples.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conformance.catalog.nodes import PROBE_GROUP_PREFIX, probes_node

_BLOCK_TYPES = ("testcode", "testoutput", "testsetup", "testcleanup", "doctest")
_TEST_TYPES = ("testcode", "doctest")


class ProbesDirective(SphinxDirective):
    """``.. probes:: REQ-ID`` followed by prose and doctest blocks, indented."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        req_id = self.arguments[0]
        section = probes_node(classes=["forkwait-probes"])
        section["req_id"] = req_id
        self.set_source_info(section)
        self.state.nested_parse(self.content, self.content_offset, section)
        group = PROBE_GROUP_PREFIX + req_id
        tests = 0
        for block in section.findall(nodes.Element):
            kind = block.get("testnodetype")
            if kind not in _BLOCK_TYPES:
                continue
            if block.get("groups") != ["default"]:
                raise self.error(
                    f"probes of {req_id}: a {kind} block names the group(s) "
                    f"{', '.join(block.get('groups', []))}; a probe runs in the group "
                    f"{group!r}, which the probes directive gives it, so name none"
                )
            block["groups"] = [group]
            tests += kind in _TEST_TYPES
        if tests == 0:
            raise self.error(f"probes of {req_id}: no testcode or doctest block inside")
        section["tests"] = tests
        return [section]


def _visit_html(self: Any, node: probes_node) -> None:
    count = node["tests"]
    self.body.append(
        '<details class="forkwait-probes">'
        f"<summary>How this rule is probed ({count} probe{'s' if count != 1 else ''})</summary>"
    )


def _depart_html(self: Any, node: probes_node) -> None:
    self.body.append("</details>\n")


def _visit_other(self: Any, node: probes_node) -> None:
    """Other builders show the probes' blocks as they are, unfolded."""


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("probes", ProbesDirective)
    app.add_node(
        probes_node,
        html=(_visit_html, _depart_html),
        latex=(_visit_other, _visit_other),
        text=(_visit_other, _visit_other),
        man=(_visit_other, _visit_other),
        texinfo=(_visit_other, _visit_other),
    )
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
