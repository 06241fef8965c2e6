"""Sphinx extension: ``.. requirement:: ID`` boxes and the generated requirement index.

Each requirement renders as a boxed, linkable rule (``:req:`ID``` links to it;
a permalink next to the ID gives its address) and is recorded with the number
of examples that follow it, so that ``conformance.sphinx_ext.requirement_tables``
can list every rule with its level, profile and examples. A requirement with no
example, or an example outside any requirement, is a build warning (an error
under ``-W``).

``.. requirement:: ID`` takes ``:profile:`` and ``:level:`` (the rule's RFC 2119
level: MUST, SHOULD or MAY), both required, and the flag ``:explore:``. Each box
is a :class:`requirement_node` carrying ``req_id``, ``profile``, ``level`` and
``explore`` as node attributes, so other tools can read the rules from the
doctrees (``node["level"]``).

Loading this extension also loads ``conformance.sphinx_ext.requirement_tables``
(``.. requirement-index::`` and ``.. requirement-counts::``),
``conformance.sphinx_ext.blocks`` (how example
blocks are shown: "Output" captions, visible ``testsetup``) and
``conformance.sphinx_ext.matrix`` (``.. conformance-matrix::``) and
``conformance.sphinx_ext.schema`` (``.. report-schema::``) and
``conformance.sphinx_ext.probes`` (``.. probes::``) and
``conformance.sphinx_ext.mutation_coverage`` (``.. mutation-coverage::``) and
``conformance.sphinx_ext.clause_inventory`` (``.. clause-inventory::``), so conf.py names
one extension for all of the spec's markup.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import DirectiveError, directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from conformance.catalog.nodes import BROKEN_REQUIREMENT, probes_node, requirement_node
from conformance.catalog.requirements import is_probe
from conformance.catalog.vocabulary import LEVELS, PROFILES
from conformance.reports.json_report import requirement_id

logger = logging.getLogger(__name__)
_TEST_NODE_TYPES = ("testcode", "doctest")
_OBJECT_TYPE = "forkwait-requirement"


@dataclass
class RequirementInfo:
    docname: str
    target: str
    profile: str
    level: str
    explore: bool
    text: str
    lineno: int
    examples: int = 0
    probes: int = 0


def recorded(env: BuildEnvironment) -> dict[str, dict[str, Any]]:
    """Requirement ID -> its RequirementInfo as a dict (pickled with the environment)."""
    if not hasattr(env, "forkwait_requirements"):
        env.forkwait_requirements = {}  # type: ignore[attr-defined]
    return env.forkwait_requirements  # type: ignore[attr-defined,no-any-return]


def link_to(app: Sphinx, docname: str, req_id: str) -> nodes.reference:
    """A link from the page ``docname`` to the box of requirement ``req_id``, named by its ID."""
    info = recorded(app.env)[req_id]
    uri = app.builder.get_relative_uri(docname, info["docname"]) + "#" + info["target"]
    return nodes.reference("", req_id, internal=True, refuri=uri)


def _profile(argument: str) -> str:
    return directives.choice(argument, tuple(PROFILES))


def _level(argument: str) -> str:
    level = (argument or "").strip()
    if level not in LEVELS:  # directives.choice would lower-case it
        raise ValueError(f"{level!r} is not a level; choose from {', '.join(LEVELS)}")
    return level


class RequirementDirective(SphinxDirective):
    required_arguments = 1
    has_content = True
    # checked in _box: an option docutils refuses would drop the directive unmarked
    option_spec: ClassVar[dict[str, Any]] = {
        "profile": directives.unchanged_required,
        "level": directives.unchanged_required,
        "explore": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        """The box; where it cannot be made, the error and a mark the spec model reads
        (catalog/requirements.py), so that the examples after it are not counted for
        the requirement above."""
        try:
            return self._box()
        except DirectiveError as error:
            told = self.reporter.system_message(error.level, error.msg, line=self.lineno)
            return [told, nodes.comment("", "", **{BROKEN_REQUIREMENT: self.arguments[0]})]

    def _box(self) -> list[nodes.Node]:
        req_id = self.arguments[0]
        if not requirement_id().fullmatch(req_id):
            raise self.error(
                f"requirement ID {req_id!r} may hold only capital letters, digits and "
                f"hyphens ({requirement_id().pattern}, as report.schema.json requires), "
                "e.g. FORK-CALLS-1"
            )
        profile = self.options.get("profile")
        if profile is None:
            raise self.error(f"requirement {req_id} needs a :profile: ({', '.join(PROFILES)})")
        level = self.options.get("level")
        if level is None:
            raise self.error(f"requirement {req_id} needs a :level: ({', '.join(LEVELS)})")
        try:
            profile, level = _profile(profile), _level(level)
        except ValueError as exc:
            raise self.error(f"requirement {req_id}: {exc}") from None
        explore = "explore" in self.options
        target = nodes.make_id(f"req-{req_id}")
        box = requirement_node(
            classes=["forkwait-requirement", f"profile-{profile}", f"level-{level.lower()}"],
            ids=[target],
        )
        # read back from the doctree by the spec model (conformance/catalog/requirements.py)
        box["req_id"] = req_id
        box["profile"] = profile
        box["level"] = level
        box["explore"] = explore
        box += _title(req_id, target, profile, level, explore)
        self.state.nested_parse(self.content, self.content_offset, box)
        known = recorded(self.env)
        if req_id in known:
            logger.warning(
                f"duplicate requirement ID {req_id} (first in {known[req_id]['docname']})",
                location=(self.env.docname, self.lineno),
            )
        info = RequirementInfo(
            self.env.docname, target, profile, level, explore, " ".join(self.content), self.lineno
        )
        known[req_id] = asdict(info)
        self.env.get_domain("std").note_object(  # type: ignore[attr-defined]
            _OBJECT_TYPE, req_id, target, location=box
        )
        return [box]


def _title(req_id: str, target: str, profile: str, level: str, explore: bool) -> nodes.title:
    """``ID ¶  [LEVEL]  profile: P``: the ID, its permalink, the level and the profile."""
    title = nodes.title("", "")
    title += nodes.inline("", req_id, classes=["forkwait-id"])
    title += nodes.reference(
        "",
        "\N{PILCROW SIGN}",
        internal=True,
        refuri="#" + target,
        reftitle=f"Permalink to {req_id}",
        classes=["forkwait-permalink"],
    )
    title += nodes.inline("", level, classes=["forkwait-level", f"forkwait-level-{level.lower()}"])
    badge = f"profile: {profile}" + (", explored under schedules" if explore else "")
    title += nodes.inline("", badge, classes=["forkwait-profile"])
    # its row in the conformance matrix; the address is filled in by link_matrix
    title += nodes.reference("", "matrix", internal=True, refuri="", classes=[_MATRIX_LINK])
    return title


_MATRIX_LINK = "forkwait-matrix-link"


def link_matrix(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Point each box's matrix link at its row (a label conformance-matrix notes), or drop it."""
    labels = app.env.get_domain("std").anonlabels  # type: ignore[attr-defined]
    for link in list(doctree.findall(nodes.reference)):
        if _MATRIX_LINK not in link["classes"]:
            continue
        box: nodes.Node | None = link
        while box is not None and not isinstance(box, requirement_node):
            box = box.parent
        where = box and labels.get(nodes.make_id(f"matrix-{box['req_id']}"))
        if box is None or where is None:
            link.parent.remove(link)
            continue
        link["refuri"] = app.builder.get_relative_uri(docname, where[0]) + "#" + where[1]
        link["reftitle"] = f"{box['req_id']} in the conformance matrix"


def count_examples(app: Sphinx, doctree: nodes.document) -> None:
    """Attribute each example (and probe) to the requirement above it, in document order."""
    env = app.env
    known = recorded(env)
    current: str | None = None
    for node in doctree.findall(nodes.Element):
        if isinstance(node, requirement_node):
            current = next(k for k, v in known.items() if v["target"] in node["ids"])
            continue
        if isinstance(node, probes_node) and node["req_id"] != current:
            logger.warning(
                f"probes of {node['req_id']} follow "
                + (f"requirement {current}" if current else "no requirement")
                + f"; put them after the examples of {node['req_id']}",
                location=node,
            )
        if node.get("testnodetype") in _TEST_NODE_TYPES:
            if current is None:
                logger.warning("example outside any requirement", location=node)
            elif is_probe(node):
                known[current]["probes"] += 1
            else:
                known[current]["examples"] += 1


def check_examples(app: Sphinx, env: BuildEnvironment) -> None:
    for req_id, info in sorted(recorded(env).items()):
        if info["examples"] == 0:
            logger.warning(
                f"requirement {req_id} has no example", location=(info["docname"], info["lineno"])
            )


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    known = recorded(env)
    for req_id in [k for k, v in known.items() if v["docname"] == docname]:
        del known[req_id]


def merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    recorded(env).update(recorded(other))


def _visit_box(self: Any, node: requirement_node) -> None:
    self.visit_admonition(node)


def _depart_box(self: Any, node: requirement_node) -> None:
    self.depart_admonition(node)


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True


def setup(app: Sphinx) -> dict[str, Any]:
    # The std-domain object type only provides the :req: role and its targets;
    # its own directive gets a name nobody uses, so ours keeps "requirement".
    app.add_object_type(_OBJECT_TYPE, "req", objname="requirement")
    app.add_directive("requirement", RequirementDirective)
    app.add_node(
        requirement_node,
        html=(_visit_box, _depart_box),
        latex=(_visit_box, _depart_box),
        text=(_visit_box, _depart_box),
    )
    app.setup_extension("conformance.sphinx_ext.requirement_tables")
    app.setup_extension("conformance.sphinx_ext.blocks")
    app.setup_extension("conformance.sphinx_ext.matrix")
    app.setup_extension("conformance.sphinx_ext.schema")
    app.setup_extension("conformance.sphinx_ext.probes")
    app.setup_extension("conformance.sphinx_ext.mutation_coverage")
    app.setup_extension("conformance.sphinx_ext.clause_inventory")
    app.connect("doctree-read", count_examples)
    app.connect("env-check-consistency", check_examples)
    app.connect("doctree-resolved", link_matrix)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.add_css_file("forkwait.css")
    return {
        "version": "0.1",
        "env_version": 4,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
