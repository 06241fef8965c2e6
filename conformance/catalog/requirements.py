"""The spec's requirements, read from Sphinx's doctrees: what every report is keyed on.

A requirement is a ``.. requirement::`` box (conformance/sphinx_ext/requirements.py); the
examples that follow it, up to the next requirement, are its examples. Sphinx
has parsed the documents already (the same parse that decides which examples
exist), so nothing here scans reST by hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes

from conformance.catalog.files import spec_conf_dir
from conformance.catalog.nodes import BROKEN_REQUIREMENT, probes_node, requirement_node
from conformance.sphinx_doctest.project import ReadProject, SphinxSource, read_project

_TEST_TYPES = ("testcode", "doctest")


class CatalogError(ValueError):
    """The spec's structure is broken: a duplicated ID, an example inside a rule..."""


@dataclass(frozen=True)
class Requirement:
    """A normative rule: its ID, profile, RFC 2119 level and text, and where it is."""

    id: str
    profile: str
    level: str
    text: str
    docname: str
    path: str
    line: int
    #: its examples also run under controlled schedules (``:explore:``)
    explore: bool = False


def _requirement(box: requirement_node, docname: str, project: ReadProject) -> Requirement:
    text = " ".join(child.astext() for child in box.children[1:])
    return Requirement(
        id=str(box["req_id"]),
        profile=str(box["profile"]),
        level=str(box.get("level", "MUST")),
        text=" ".join(text.split()),
        docname=docname,
        path=str(box.source or project.path_of(docname)),
        line=int(box.line or 0),
        explore=bool(box.get("explore", False)),
    )


def is_example(node: nodes.Node) -> bool:
    """A node the doctest builder runs as a test (a setup/cleanup/output block is not one)."""
    return isinstance(node, nodes.Element) and node.get("testnodetype") in _TEST_TYPES


def is_probe(node: nodes.Node) -> bool:
    """An example inside a ``.. probes::`` section: run and counted after the examples."""
    return any(isinstance(a, probes_node) for a in _ancestors(node))


def walk_document(
    project: ReadProject, docname: str
) -> Iterator[tuple[nodes.Element, Requirement | None]]:
    """Every requirement box and example of a document, in order, each example with the
    requirement it belongs to (the last one above it, unless a requirement that could
    not be read comes between)."""
    current: Requirement | None = None
    doctree = project.doctree(docname)
    for node in doctree.findall(nodes.Element):
        if isinstance(node, requirement_node):
            current = _requirement(node, docname, project)
            yield node, current
        elif isinstance(node, nodes.comment) and BROKEN_REQUIREMENT in node.attributes:
            current = None  # a requirement Sphinx warned about: its examples are no one's
        elif isinstance(node, probes_node) and (current is None or node["req_id"] != current.id):
            raise CatalogError(
                f"{node.source}, line {node.line}: probes of {node['req_id']} follow "
                + (f"requirement {current.id}" if current else "no requirement")
                + f"; put them after the examples of {node['req_id']}"
            )
        elif is_example(node):
            box = next((a for a in _ancestors(node) if isinstance(a, requirement_node)), None)
            if box is not None:
                raise CatalogError(
                    f"{node.source}, line {node.line}: a {node['testnodetype']} inside the "
                    f"text of requirement {box['req_id']}; examples follow a requirement, "
                    "unindented, so that they run and are counted"
                )
            yield node, current


def _ancestors(node: nodes.Node) -> Iterator[nodes.Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def catalog_of(project: ReadProject) -> dict[str, Requirement]:
    """Requirement ID -> Requirement, in document order; a duplicated ID is an error."""
    found: dict[str, Requirement] = {}
    for docname in project.docnames():
        for node, requirement in walk_document(project, docname):
            if not isinstance(node, requirement_node) or requirement is None:
                continue
            first = found.setdefault(requirement.id, requirement)
            if first is not requirement:
                raise CatalogError(
                    f"requirement ID {requirement.id} is defined twice: {first.path}, line "
                    f"{first.line} and {requirement.path}, line {requirement.line}"
                )
    return found


def requirements_in(root: Path, confdir: Path | None = None, cache: Path | None = None) -> dict[
    str, Requirement
]:  # fmt: skip
    """Requirement ID -> Requirement for the spec folder ``root`` (read with Sphinx)."""
    from conformance.sphinx_doctest.project import default_cache_root  # noqa: PLC0415

    conf = confdir or (root if (root / "conf.py").is_file() else spec_conf_dir())
    return catalog_of(read_project(root, SphinxSource(conf), cache or default_cache_root()))
