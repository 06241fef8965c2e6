"""The clause inventory (docs/clauses/*.toml) accounts for every clause of every MUST.

It fails when a MUST has no clause; a clause's quote is not in its rule's text;
a clause names a dimension the vocabulary lacks; a partition of its dimension is
not listed; a partition has neither a probe reference nor a reason (nor an open
gap); a reference's marker is in none of its rule's examples or probes. Open gaps
are counted, so that a new one is added on purpose and a closed one is noticed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.catalog.clauses import (
    CLAUSES_FOLDER,
    Blocks,
    Clause,
    Coverage,
    InventoryError,
    blocks_of,
    load,
    problems,
    tally,
)
from conformance.catalog.dimensions import DIMENSIONS
from conformance.catalog.files import spec_conf_dir, spec_dir
from conformance.catalog.requirements import requirements_in
from conformance.sphinx_doctest.project import SphinxSource, default_cache_root, read_project

#: the open gaps the inventory lists: lower it when a probe closes one
OPEN_GAPS = 252


@pytest.fixture(scope="module")
def inventory() -> list[Clause]:
    return load(spec_dir() / CLAUSES_FOLDER)


@pytest.fixture(scope="module")
def musts() -> dict[str, tuple[str, str]]:
    return {
        rid: (req.docname, req.text)
        for rid, req in requirements_in(spec_dir()).items()
        if req.level == "MUST"
    }


@pytest.fixture(scope="module")
def blocks() -> dict[str, Blocks]:
    project = read_project(spec_dir(), SphinxSource(spec_conf_dir()), default_cache_root())
    return blocks_of(project)


def test_the_inventory_holds(
    inventory: list[Clause], musts: dict[str, tuple[str, str]], blocks: dict[str, Blocks]
) -> None:
    assert problems(inventory, musts, blocks) == []


def test_every_must_has_a_clause(
    inventory: list[Clause], musts: dict[str, tuple[str, str]]
) -> None:
    assert len(musts) >= 80  # the spec's MUSTs were read, not an empty catalog
    assert set(musts) <= {clause.rule for clause in inventory}


def test_open_gaps_are_counted(inventory: list[Clause]) -> None:
    gaps = [
        f"{clause.rule} {clause.quote!r} {name}: {coverage.text}"
        for clause in inventory
        for name, coverage in clause.partitions.items()
        if coverage.kind == "gap"
    ]
    assert len(gaps) == OPEN_GAPS, "\n".join(gaps)


# The checks themselves, on a small inventory whose faults are known.
MUSTS = {"R-1": ("page", "fork MUST accept any callable, in plain Python")}
BLOCKS = {"R-1": Blocks(examples=("fw.fork(lambda x: x, 1)",), probes=("fw.fork(max, 1, 2)",))}


def clause(**changes: object) -> Clause:
    partitions = {name: Coverage("reason", "not here") for name in DIMENSIONS["count"].partitions}
    fields: dict[str, object] = {
        "rule": "R-1",
        "quote": "any callable",
        "dimension": "count",
        "partitions": partitions,
        "page": "page",
        "where": "page.toml, R-1",
    }
    return Clause(**{**fields, **changes})  # type: ignore[arg-type]


def with_partition(name: str, coverage: Coverage) -> Clause:
    return clause(partitions={**clause().partitions, name: coverage})


def test_a_sound_clause_has_no_problem() -> None:
    sound = with_partition("one", Coverage("probe", "fw.fork(max"))
    assert (
        problems([sound, with_partition("zero", Coverage("example", "lambda"))], MUSTS, BLOCKS)
        == []
    )


@pytest.mark.parametrize(
    ("faulty", "told"),
    [
        (clause(rule="R-2"), "not a MUST"),
        (clause(quote="every callable"), "quote is not in the text"),
        (clause(dimension="colour"), "no dimension 'colour'"),
        (clause(page="other"), "is on page.rst"),
        (clause(partitions={"zero": Coverage("reason", "r")}), "not listed: ['one', 'many'"),
        (with_partition("mauve", Coverage("reason", "r")), "['mauve'] are not partitions"),
        (with_partition("one", Coverage("probe", "lambda")), "is in no probe of R-1"),
        (with_partition("one", Coverage("example", "lambda", "R-9")), "is in no example of R-9"),
    ],
)
def test_each_fault_is_named(faulty: Clause, told: str) -> None:
    found = problems([faulty], MUSTS, BLOCKS)
    assert any(told in problem for problem in found), found


def test_a_must_without_a_clause_is_named() -> None:
    assert problems([], MUSTS, BLOCKS) == ["R-1: a MUST without a clause in the inventory"]


@pytest.mark.parametrize(
    ("entry", "told"),
    [
        ('[[clause]]\nrule = "R-1"\nquote = "q"\n', "'dimension' must be a non-empty string"),
        (
            '[[clause]]\nrule="R-1"\nquote="q"\ndimension="count"\npartitions.one = {}\n',
            "exactly one",
        ),
        (
            '[[clause]]\nrule="R-1"\nquote="q"\ndimension="count"\n'
            'partitions.one = { reason = "r", gap = "g" }\n',
            "exactly one",
        ),
        (
            '[[clause]]\nrule="R-1"\nquote="q"\ndimension="count"\n'
            'partitions.one = { reason = "r", rule = "R-2" }\n',
            "example or probe only",
        ),
        ('[[clause]]\nrule="R-1"\nquote="q"\ndimension="count"\ncolour = 1\n', "unknown key"),
        ("[[clause]\n", "page.toml"),
    ],
)
def test_a_malformed_file_is_refused_by_name(tmp_path: Path, entry: str, told: str) -> None:
    (tmp_path / "page.toml").write_text(entry, encoding="utf-8")
    with pytest.raises(InventoryError, match=r"page\.toml") as raised:
        load(tmp_path)
    assert told in str(raised.value)


def test_tally_counts_each_kind() -> None:
    mixed = with_partition("one", Coverage("gap", "missing"))
    assert tally([mixed]) == {"example": 0, "probe": 0, "reason": 3, "gap": 1}
