"""The spec itself: every requirement has an example, every example has a requirement."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sybil import Document

from conformance.adapter import PROFILES
from conformance.blocks import Block, Requirement, SpecParser
from conformance.spec_files import spec_dir

DOCUMENTS = sorted(spec_dir().glob("**/*.rst"))


def parsed(path: Path) -> list[Block | Requirement]:
    return [ex.parsed for ex in Document.parse(str(path), SpecParser()).examples()]


def test_the_spec_has_documents_and_requirements() -> None:
    requirements = [p for path in DOCUMENTS for p in parsed(path) if isinstance(p, Requirement)]
    assert len(DOCUMENTS) >= 10
    assert len(requirements) >= 30
    assert {r.profile for r in requirements} >= {"core", "async", "dynamic"}
    assert {r.profile for r in requirements} <= set(PROFILES)


def test_requirement_ids_are_unique() -> None:
    ids = Counter(p.id for path in DOCUMENTS for p in parsed(path) if isinstance(p, Requirement))
    assert [i for i, n in ids.items() if n > 1] == []


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_requirement_has_an_example_and_every_example_a_requirement(path: Path) -> None:
    items = parsed(path)
    orphans = [b.line for b in items if isinstance(b, Block) and b.is_test and not b.requirement]
    assert orphans == [], f"{path.name}: examples outside any requirement at lines {orphans}"
    covered = {b.requirement.id for b in items if isinstance(b, Block) and b.requirement}
    bare = [r.id for r in items if isinstance(r, Requirement) and r.id not in covered]
    assert bare == [], f"{path.name}: requirements without examples: {bare}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_must_and_should_rule_says_so_in_rfc_2119_words(path: Path) -> None:
    for item in parsed(path):
        if isinstance(item, Requirement):
            assert any(word in item.text for word in ("MUST", "SHOULD", "MAY")), item.id
