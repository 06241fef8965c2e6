"""The docs' ``.. mutation-coverage:: mutants.json``: per requirement, what checks it.

One row per requirement: its level, how many examples and probes it has
(counted from the boxes, as ``.. requirement-index::`` counts them), and the
mutants that fail it - the wrong implementations of ``tests/mutants/`` that
the suite must catch, a mutant meant to break the rule in bold; the listing
below says which implementation each mutant changes (the reference, or one of
the implementations written from the docs alone). A *survivor* is a mutant
the suite passes although it breaks a rule: it is no mutant failing that
rule, its row names it as a survivor, and the listing says what no probe
drives yet; a mutant caught *by chance* (a race no probe forces) is named
the same way. The mutants
come from a JSON record beside the spec (``docs/_mutation/mutants.json``,
written by ``python -m tests.mutants._record`` from the contracts the mutant
modules declare, and checked current by
``tests/spec/test_mutation_coverage_page.py``), so the installed spec renders
the page without the project's tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from conformance.sphinx_ext.requirements import link_to, recorded
from conformance.sphinx_ext.tables import row

logger = logging.getLogger(__name__)
FORMAT = 2


@dataclass(frozen=True)
class Mutant:
    name: str
    about: str
    breaks: frozenset[str]
    extras: frozenset[str]
    #: the implementation the mutant changes: "reference", or a package of tests/independent/
    base: str
    #: a survivor: what no probe drives yet, so that the suite passes it (else "")
    survives: str
    #: caught by chance: the race no probe forces, so that the suite fails it in some runs
    chance: str


def read_mutants(path: Path) -> list[Mutant]:
    """The recorded mutants; ValueError names what is wrong with the file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a mutants record of format {FORMAT}")
    return [
        Mutant(
            name,
            str(m["about"]),
            frozenset(m["breaks"]),
            frozenset(m["extras"]),
            str(m["base"]),
            str(m["survives"]),
            str(m["chance"]),
        )
        for name, m in sorted(data["mutants"].items())
    ]


class mutation_coverage_node(nodes.General, nodes.Element):
    """Placeholder replaced by the table once every requirement's counts are known."""


class MutationCoverageDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        relative, path = self.env.relfn2path(self.arguments[0], self.env.docname)
        self.env.note_dependency(relative)
        try:
            mutants = read_mutants(Path(path))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise self.error(f"mutation-coverage: {exc}") from exc
        node = mutation_coverage_node()
        node["mutants"] = mutants
        return [node]


def fill_mutation_coverage(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    known = recorded(app.env)
    for placeholder in list(doctree.findall(mutation_coverage_node)):
        mutants: list[Mutant] = placeholder["mutants"]
        table = nodes.table(classes=["forkwait-mutation-coverage"])
        group = nodes.tgroup(cols=5)
        table += group
        group += [nodes.colspec(colwidth=w) for w in (24, 8, 8, 8, 52)]
        head = nodes.thead()
        head += row("requirement", "level", "examples", "probes", "mutants failing it")
        body = nodes.tbody()
        for req_id, info in sorted(known.items()):
            killers: list[nodes.Node] = []
            survivors: list[nodes.Node] = []
            for mutant in mutants:
                name = nodes.literal("", mutant.name)
                if mutant.survives and req_id in mutant.breaks:
                    survivors += [nodes.Text(" survivor: "), nodes.emphasis("", "", name)]
                elif mutant.chance and req_id in mutant.breaks:
                    survivors += [nodes.Text(" by chance: "), nodes.emphasis("", "", name)]
                elif req_id in mutant.breaks or req_id in mutant.extras:
                    killers += [nodes.strong("", "", name) if req_id in mutant.breaks else name]
                    killers.append(nodes.Text(" "))
            level, examples, probes = info["level"], info["examples"], info.get("probes", 0)
            if not killers and level == "MUST":
                logger.warning(f"no mutant fails the MUST {req_id}", location=placeholder)
            body += row(
                [link_to(app, docname, req_id)],
                level,
                str(examples),
                str(probes),
                [*killers, *survivors] or "-",
            )
        group += body
        listing = nodes.definition_list(classes=["forkwait-mutants"])
        for mutant in mutants:
            item = nodes.definition_list_item()
            term = nodes.term("", "", nodes.literal("", mutant.name))
            if mutant.base != "reference":
                term += nodes.Text(f" (a variant of the independent {mutant.base})")
            item += term
            about = nodes.paragraph("", mutant.about)
            if mutant.survives:
                about += nodes.Text(" The suite passes it (a survivor): ")
                about += nodes.emphasis("", mutant.survives)
            if mutant.chance:
                about += nodes.Text(" The suite catches it in some runs only: ")
                about += nodes.emphasis("", mutant.chance)
            item += nodes.definition("", about)
            listing += item
        placeholder.replace_self([table, listing])


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("mutation-coverage", MutationCoverageDirective)
    app.add_node(mutation_coverage_node)
    app.connect("doctree-resolved", fill_mutation_coverage)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
