"""How the spec's example blocks are shown to a reader in HTML.

Sphinx's doctest extension renders ``testoutput`` like any code and hides
``testsetup`` altogether (it becomes a comment). A reader then cannot tell what
an example prints from the code that prints it, nor see the helpers a page's
examples call. So, on the written (resolved) doctree only:

- every ``testoutput`` block is captioned "Output";
- every ``testsetup`` block is shown, as Python, captioned with what it is
  ("Setup for every example on this page" for the ``*`` group), in the place
  the page put it.

The stored doctree, which the doctest builder and the conformance suite read,
keeps its blocks as Sphinx made them, so nothing here changes what runs.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

OUTPUT_CAPTION = "Output"
SETUP_CAPTION = "Setup for every example on this page"
GROUP_SETUP_CAPTION = "Setup for the examples of group {groups}"


def _captioned(caption: str, kind: str) -> nodes.container:
    wrapper = nodes.container("", literal_block=True, classes=["literal-block-wrapper", kind])
    wrapper += nodes.caption("", caption)
    return wrapper


def caption_outputs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Caption every ``testoutput`` block "Output", as Sphinx captions a ``code-block``."""
    for block in list(doctree.findall(nodes.literal_block)):
        if block.get("testnodetype") != "testoutput":
            continue
        wrapper = _captioned(OUTPUT_CAPTION, "forkwait-output")
        doctree.set_id(wrapper, suggested_prefix="output")  # Sphinx wants captioned code anchored
        block.replace_self(wrapper)
        wrapper += block


def show_setups(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Show every ``testsetup`` block (a hidden comment until now) as captioned Python."""
    if app.builder.format != "html":
        return
    for comment in list(doctree.findall(nodes.comment)):
        if comment.get("testnodetype") != "testsetup":
            continue
        groups = comment.get("groups", ["default"])
        caption = (
            SETUP_CAPTION if "*" in groups else GROUP_SETUP_CAPTION.format(groups=", ".join(groups))
        )
        code = comment.astext()
        block = nodes.literal_block(code, code, language="python")
        block.source, block.line = comment.source, comment.line
        wrapper = _captioned(caption, "forkwait-setup")
        doctree.set_id(wrapper, suggested_prefix="setup")
        wrapper += block
        comment.replace_self(wrapper)


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("doctree-resolved", caption_outputs)
    app.connect("doctree-resolved", show_setups)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
