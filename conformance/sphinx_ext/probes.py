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

The probes live in a file of their own, ``probes/<docname>/<ID>.rst`` beside
the documents (``probes/future/FUTURE-DONE-1.rst`` for ``future.rst``), so a
spec page holds the rules, their examples and their headings, and a rule's
probes can be read and reviewed as one piece. The directive parses that file
into the page with the file as the nodes' source and its own line numbers (as
Sphinx's ``include`` does), so a failing probe is named at its line in the
probe file, and an edit of the file rebuilds the page. The folder must be in
``exclude_patterns``: its files are parts of pages, not documents.

In HTML the section is a ``<details>`` element, closed, headed "How this rule is
probed", below the requirement's examples.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList, string2lines
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conformance.catalog.nodes import PROBE_GROUP_PREFIX, probes_node

_BLOCK_TYPES = ("testcode", "testoutput", "testsetup", "testcleanup", "doctest")
_TEST_TYPES = ("testcode", "doctest")
#: the folder, beside the documents, that holds every rule's probe file
PROBES_FOLDER = "probes"


class ProbesDirective(SphinxDirective):
    """``.. probes:: REQ-ID``: the prose and doctest blocks of ``probes/<docname>/<ID>.rst``."""

    required_arguments = 1
    #: content is refused, so that a rule's probes are never in two places
    has_content = True

    def run(self) -> list[nodes.Node]:
        req_id = self.arguments[0]
        section = probes_node(classes=["forkwait-probes"])
        section["req_id"] = req_id
        self.set_source_info(section)
        self.state.nested_parse(self._probe_lines(req_id), 0, section)
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

    def _probe_lines(self, req_id: str) -> StringList:
        """The probe file's lines, each carrying the file and its line (as ``include`` does)."""
        relative = probe_file(self.env.docname, req_id)
        path = Path(self.env.srcdir) / relative
        self.env.note_dependency(path)  # also while it is missing: the page is read until it is
        if self.content:
            raise self.error(
                f"probes of {req_id}: the directive has content; a rule's probes live in "
                f"{path} only, so leave the directive empty"
            )
        if self.env.path2doc(str(path)) in self.env.found_docs:
            raise self.error(
                f"probes of {req_id}: {path} is read as a document too; add "
                f"{PROBES_FOLDER!r} to exclude_patterns in conf.py"
            )
        try:
            text = path.read_text(encoding=self.config.source_encoding)
        except FileNotFoundError:
            raise self.error(
                f"probes of {req_id}: {path} does not exist; write the probes there"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise self.error(f"probes of {req_id}: cannot read {path}: {exc}") from None
        if not text.strip():
            raise self.error(f"probes of {req_id}: {path} is empty")
        lines = string2lines(text, self.state.document.settings.tab_width, convert_whitespace=True)
        return StringList(lines, source=str(path))


def probe_file(docname: str, req_id: str) -> str:
    """Where the probes of ``req_id`` on document ``docname`` are, relative to the sources."""
    return f"{PROBES_FOLDER}/{docname}/{req_id}.rst"


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


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True


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
