"""The doctree node of one requirement box: what the spec's directive makes and readers find.

It lives in the spec model, not in the HTML extension, so the catalog can read
requirements from Sphinx's doctrees without importing the rendering code.
"""

from __future__ import annotations

from docutils import nodes


class requirement_node(nodes.Admonition, nodes.Element):
    """The box around one rule; attributes ``req_id``, ``profile``, ``level``, ``explore``."""
