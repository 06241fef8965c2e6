"""The doctree node of one requirement box: what the spec's directive makes and readers find.

It lives in the spec model, not in the HTML extension, so the catalog can read
requirements from Sphinx's doctrees without importing the rendering code.
"""

from __future__ import annotations

from docutils import nodes


class requirement_node(nodes.Admonition, nodes.Element):
    """The box around one rule; attributes ``req_id``, ``profile``, ``level``, ``explore``."""


class probes_node(nodes.General, nodes.Element):
    """The folded section of probes after a requirement's examples; attribute ``req_id``.

    Its test blocks run as the requirement's examples do, counted after them, in a
    group of their own (:data:`PROBE_GROUP_PREFIX` + the ID) so that a run without
    probes (``--quick``) never replays them to rebuild the examples' namespace.
    """


#: the doctest group of a requirement's probes: this prefix and the requirement's ID
PROBE_GROUP_PREFIX = "probe:"


#: attribute of the comment a requirement directive leaves where it failed (a bad ID, no
#: profile): the examples after it belong to no requirement, not to the one above it
BROKEN_REQUIREMENT = "forkwait_broken_requirement"
