"""The spec's figures, drawn from real runs of the reference at docs build time.

``.. traced-graph::`` shows a program, traces it with the reference's
``fw.trace`` and draws the graph that trace recorded (``Graph.to_dot()``,
rendered by ``sphinx.ext.graphviz``): each fork node a box holding its
subgraph, each wait fed by its fork's future. Its content is the program; the
variable named by ``:traced:`` (default ``traced``) holds the traced function.

``.. scripted-timeline::`` shows a program, runs it with the reference's
``fw`` recorded (conformance/sphinx_ext/timeline.py) and draws one lane per thread, one
bar per scripted call, task and wait (conformance/sphinx_ext/timeline_svg.py, inline
SVG). The same recording is written next to the page as Chrome trace-event
JSON, linked under the picture, for Perfetto (ui.perfetto.dev) or
``chrome://tracing``.

Both run their program only when the HTML is written (``doctree-resolved``
of an HTML builder), never while a document is read: the doctest builder and
the conformance suite, which read the same documents with the same
extensions, neither run these programs nor need Graphviz's ``dot``. A program
that fails is a build warning at the directive's line, so ``-W`` stops.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.ext.graphviz import graphviz
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri

from conformance.sphinx_ext.timeline import record
from conformance.sphinx_ext.timeline_svg import to_svg

logger = logging.getLogger(__name__)
#: where timelines' trace-event files go, under the HTML output folder
DOWNLOADS = "_timelines"
PERFETTO = "https://ui.perfetto.dev"


class picture_node(nodes.General, nodes.Element):
    """A picture still to be drawn: ``kind``, ``program``, ``caption`` and options."""


class _PictureDirective(SphinxDirective):
    """Show the program (it is what the picture is of), then a placeholder for the picture."""

    kind: ClassVar[str]
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "caption": directives.unchanged_required,
        "traced": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        program = "\n".join(self.content)
        if not program.strip():
            raise self.error(f"{self.name} needs a program as its content")
        code = nodes.literal_block(program, program, language="python")
        self.set_source_info(code)
        caption = self.options.get("caption", "")
        placeholder = picture_node(
            kind=self.kind,
            program=program,
            caption=caption,
            traced=self.options.get("traced", "traced"),
            number=self.env.new_serialno(f"forkwait-{self.kind}"),
        )
        self.set_source_info(placeholder)
        if caption:  # kept as the placeholder's child, parsed as reST inline markup
            parsed, messages = self.parse_inline(caption, lineno=self.lineno)
            placeholder += nodes.caption(caption, "", *parsed)
            placeholder += messages
        container = nodes.container(classes=["forkwait-picture", f"forkwait-{self.kind}"])
        container += [code, placeholder]
        return [container]


class TracedGraphDirective(_PictureDirective):
    kind = "graph"


class ScriptedTimelineDirective(_PictureDirective):
    kind = "timeline"


def _reference() -> Any:
    """The reference, imported when a picture is drawn: the suite reads the spec with this
    extension too, and its pytest processes never import an implementation."""
    import reference_impl  # noqa: PLC0415 - see above

    return reference_impl


def _namespace(fw: Any) -> dict[str, Any]:
    return {"__name__": "forkwait_docs_picture", "fw": fw}


def graph_dot(program: str, traced: str = "traced", filename: str = "<graph>") -> str:
    """Run ``program`` with the reference as ``fw``; the DOT of ``traced``'s graph."""
    namespace = _namespace(_reference())
    exec(compile(program, filename, "exec"), namespace)  # noqa: S102 - the docs' own program
    return str(namespace[traced].graph.to_dot())


def _caption(node: picture_node, default: str, *extra: nodes.Node) -> nodes.caption:
    """The directive's parsed caption (or ``default``), then ``extra``."""
    parsed = next(iter(node.findall(nodes.caption)), None)
    text = parsed.children if parsed is not None else [nodes.Text(default)]
    return nodes.caption("", "", *[child.deepcopy() for child in text], *extra)


def _draw_graph(app: Sphinx, node: picture_node, docname: str) -> nodes.figure:
    dot = graph_dot(node["program"], node["traced"], f"<{docname}: traced-graph>")
    picture = graphviz()
    picture["code"] = dot
    picture["options"] = {"docname": docname}
    picture["alt"] = _caption(node, "The graph a trace recorded.").astext()
    picture["classes"] = ["forkwait-graph-picture"]
    figure = nodes.figure("", picture, classes=["forkwait-figure"])
    figure += _caption(node, "The graph the reference's trace recorded.")
    return figure


def _draw_timeline(app: Sphinx, node: picture_node, docname: str) -> nodes.figure:
    timeline = record(node["program"], _reference(), f"<{docname}: scripted-timeline>")
    ident = f"forkwait-timeline-{node['number']}"
    name = f"{docname.replace('/', '-')}-timeline-{node['number'] + 1}.trace.json"
    target = Path(app.outdir) / DOWNLOADS / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(timeline.to_chrome(), indent=1) + "\n", encoding="utf-8")
    title = _caption(node, "A scripted run of the reference, recorded.").astext()
    svg = nodes.raw("", to_svg(timeline, ident, title), format="html")
    uri = relative_uri(app.builder.get_target_uri(docname), f"{DOWNLOADS}/{name}")
    download = nodes.reference("", "the recording as trace-event JSON", refuri=uri)
    download["classes"] = ["forkwait-download"]
    perfetto = nodes.reference("", "Perfetto", refuri=PERFETTO)
    extra = [nodes.Text(" ("), download, nodes.Text(", for "), perfetto, nodes.Text(")")]
    figure = nodes.figure("", svg, classes=["forkwait-figure"])
    figure += _caption(node, "A scripted run of the reference, recorded.", *extra)
    return figure


def draw(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Replace each placeholder by its picture (HTML) or by nothing (other formats)."""
    for node in list(doctree.findall(picture_node)):
        if app.builder.format != "html":
            node.parent.remove(node)
            continue
        drawer = _draw_graph if node["kind"] == "graph" else _draw_timeline
        try:
            picture = drawer(app, node, docname)
            ident = f"{node['kind']}-{node['number'] + 1}"  # a figure needs an id: a stable one
            if ident in doctree.ids:
                doctree.set_id(picture)
            else:
                picture["ids"].append(ident)
                doctree.ids[ident] = picture
            node.replace_self(picture)
        except Exception as exc:  # noqa: BLE001 - any failure of the program is the page's
            logger.warning(f"the {node['kind']} picture's program failed: {exc!r}", location=node)
            node.parent.remove(node)


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.graphviz")
    app.add_node(picture_node)
    app.add_directive("traced-graph", TracedGraphDirective)
    app.add_directive("scripted-timeline", ScriptedTimelineDirective)
    app.connect("doctree-resolved", draw)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
