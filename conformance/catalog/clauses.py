"""The clause inventory: every clause of every MUST, its dimension, and how each partition is met.

The inventory is data beside the documents, ``clauses/<page>.toml`` (one file per
page, so it sits next to the rules it describes), never part of a rule's text::

    [[clause]]
    rule = "FORK-CALLABLES-1"
    quote = "any callable"            # exactly as it stands in the rule's text
    dimension = "callable"            # conformance.catalog.dimensions
    [clause.partitions]
    lambda = { example = "lambda x: x * x" }          # a marker in the rule's examples
    partial = { probe = "functools.partial(" }        # ... or in its probes
    scripted = { probe = "fw.fork(scripted_affine", rule = "FORK-SCRIPTED-1" }
    trace = { reason = "why the partition does not apply" }
    thread = { gap = "what is missing: no probe forks from a second thread" }

A marker is a short string that must occur in the named rule's example blocks
(``example``) or probe blocks (``probe``), so that a reference cannot silently
outlive the probe it names. :func:`problems` lists everything that does not hold;
the test and the page read the same model.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance.catalog.dimensions import COVERAGE_KINDS, DIMENSIONS
from conformance.catalog.requirements import is_example, is_probe, walk_document
from conformance.sphinx_doctest.project import ReadProject

#: the folder, beside the documents, that holds the inventory
CLAUSES_FOLDER = "clauses"


class InventoryError(ValueError):
    """An inventory file that cannot be read as the inventory's format."""


@dataclass(frozen=True)
class Coverage:
    """How one partition is met: ``kind`` is example, probe, reason or gap."""

    kind: str
    text: str
    #: for an example or probe: the rule whose blocks hold the marker (the clause's own if None)
    rule: str | None = None


@dataclass(frozen=True)
class Clause:
    rule: str
    quote: str
    dimension: str
    partitions: Mapping[str, Coverage]
    page: str
    where: str = field(compare=False)


@dataclass(frozen=True)
class Blocks:
    """The code of a rule's example blocks and of its probe blocks."""

    examples: tuple[str, ...] = ()
    probes: tuple[str, ...] = ()


def load(folder: Path) -> list[Clause]:
    """Every clause of every ``*.toml`` in ``folder``, in file order; a malformed entry is an
    :class:`InventoryError` naming its file and entry."""
    clauses: list[Clause] = []
    for path in sorted(folder.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise InventoryError(f"{path}: {exc}") from None
        unknown = set(data) - {"clause"}
        if unknown:
            raise InventoryError(f"{path}: unknown top-level key(s) {sorted(unknown)}")
        for index, entry in enumerate(data.get("clause", [])):
            clauses.append(_clause(entry, path, index))
    return clauses


def _clause(entry: object, path: Path, index: int) -> Clause:
    where = f"{path.name}, clause {index + 1}"
    if not isinstance(entry, dict):
        raise InventoryError(f"{where}: not a table")
    for key in ("rule", "quote", "dimension"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise InventoryError(f"{where}: {key!r} must be a non-empty string")
    where = f"{path.name}, {entry['rule']} {entry['quote']!r}"
    unknown = set(entry) - {"rule", "quote", "dimension", "partitions"}
    if unknown:
        raise InventoryError(f"{where}: unknown key(s) {sorted(unknown)}")
    partitions = entry.get("partitions", {})
    if not isinstance(partitions, dict):
        raise InventoryError(f"{where}: 'partitions' must be a table")
    return Clause(
        rule=entry["rule"],
        quote=entry["quote"],
        dimension=entry["dimension"],
        partitions={
            name: _coverage(value, f"{where}, {name}") for name, value in partitions.items()
        },
        page=path.stem,
        where=where,
    )


def _coverage(value: object, where: str) -> Coverage:
    if not isinstance(value, dict):
        raise InventoryError(f'{where}: give a table such as {{ probe = "marker" }}')
    kinds = [kind for kind in COVERAGE_KINDS if kind in value]
    unknown = set(value) - {*COVERAGE_KINDS, "rule"}
    if len(kinds) != 1 or unknown:
        raise InventoryError(
            f"{where}: give exactly one of {', '.join(COVERAGE_KINDS)}"
            + (f" (unknown: {sorted(unknown)})" if unknown else "")
        )
    kind = kinds[0]
    text, rule = value[kind], value.get("rule")
    if not isinstance(text, str) or not text.strip():
        raise InventoryError(f"{where}: {kind} must be a non-empty string")
    if rule is not None and (kind not in ("example", "probe") or not isinstance(rule, str)):
        raise InventoryError(f"{where}: 'rule' names the rule of an example or probe only")
    return Coverage(kind, text, rule)


def problems(
    clauses: Iterable[Clause],
    musts: Mapping[str, tuple[str, str]],
    blocks: Mapping[str, Blocks],
) -> list[str]:
    """What breaks the inventory. ``musts``: rule ID -> (docname, text) of every MUST;
    ``blocks``: rule ID -> its example and probe code."""
    found: list[str] = []
    clauses = list(clauses)
    covered = {clause.rule for clause in clauses}
    found += [
        f"{rule}: a MUST without a clause in the inventory" for rule in musts if rule not in covered
    ]
    for clause in clauses:
        found += _clause_problems(clause, musts, blocks)
    return found


def _clause_problems(
    clause: Clause, musts: Mapping[str, tuple[str, str]], blocks: Mapping[str, Blocks]
) -> list[str]:
    where = clause.where
    if clause.rule not in musts:
        return [f"{where}: {clause.rule} is not a MUST requirement of the spec"]
    docname, text = musts[clause.rule]
    found: list[str] = []
    if clause.page != docname:
        found.append(f"{where}: {clause.rule} is on {docname}.rst, not {clause.page}.rst")
    if clause.quote not in text:
        found.append(f"{where}: the quote is not in the text of {clause.rule}")
    dimension = DIMENSIONS.get(clause.dimension)
    if dimension is None:
        return [*found, f"{where}: no dimension {clause.dimension!r} ({', '.join(DIMENSIONS)})"]
    missing = [name for name in dimension.partitions if name not in clause.partitions]
    extra = [name for name in clause.partitions if name not in dimension.partitions]
    if missing:
        found.append(f"{where}: partitions of {clause.dimension} not listed: {missing}")
    if extra:
        found.append(f"{where}: {extra} are not partitions of {clause.dimension}")
    for name, coverage in clause.partitions.items():
        if coverage.kind not in ("example", "probe"):
            continue
        owner = coverage.rule or clause.rule
        code = blocks.get(owner, Blocks())
        pool = code.examples if coverage.kind == "example" else code.probes
        if not any(coverage.text in block for block in pool):
            found.append(
                f"{where}, {name}: marker {coverage.text!r} is in no {coverage.kind} of {owner}"
            )
    return found


def blocks_of(project: ReadProject) -> dict[str, Blocks]:
    """Rule ID -> the code of its examples and probes, as Sphinx read the documents."""
    code: dict[str, tuple[list[str], list[str]]] = {}
    for docname in project.docnames():
        for node, requirement in walk_document(project, docname):
            if requirement is None or not is_example(node):
                continue
            examples, probes = code.setdefault(requirement.id, ([], []))
            (probes if is_probe(node) else examples).append(node.astext())
    return {rule: Blocks(tuple(ex), tuple(pr)) for rule, (ex, pr) in code.items()}


def tally(clauses: Iterable[Clause]) -> dict[str, int]:
    """How many partitions are met each way (example, probe, reason, gap)."""
    counts = dict.fromkeys(COVERAGE_KINDS, 0)
    for clause in clauses:
        for coverage in clause.partitions.values():
            counts[coverage.kind] += 1
    return counts
