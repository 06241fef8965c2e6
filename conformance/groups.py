"""Sphinx's doctest groups, rebuilt exactly: which block runs where, in what order.

Mirrors ``sphinx.ext.doctest`` (``TestGroup.add_code`` and ``test_doc``): groups
are per document and created in order of first use; ``*`` blocks join every
group after all others; a ``testoutput`` pairs with its group's latest
``testcode`` (a later one replaces an earlier); skipped blocks are left out
*before* pairing, so they shift nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from conformance.blocks import Block


@dataclass
class Test:
    """A doctest block, or a testcode with the testoutput it is compared against."""

    code: Block
    output: Block | None = None


@dataclass
class Group:
    name: str
    setup: list[Block] = field(default_factory=list)
    tests: list[Test] = field(default_factory=list)
    cleanup: list[Block] = field(default_factory=list)

    def add(self, block: Block) -> None:
        if block.kind == "testsetup":
            self.setup.append(block)
        elif block.kind == "testcleanup":
            self.cleanup.append(block)
        elif block.kind in ("testcode", "doctest"):
            self.tests.append(Test(block))
        elif block.kind == "testoutput":
            latest = self.tests[-1] if self.tests else None
            if latest is not None and latest.code.kind == "testcode":
                latest.output = block


def build_groups(blocks: Iterable[Block], skipped: Callable[[Block], bool]) -> dict[str, Group]:
    """Group the blocks of one document the way Sphinx's doctest builder does."""
    groups: dict[str, Group] = {}
    for_all: list[Block] = []
    for block in blocks:
        if skipped(block):
            continue
        if block.applies_to_all_groups:
            for_all.append(block)
            continue
        for name in block.groups:
            groups.setdefault(name, Group(name)).add(block)
    for block in for_all:
        for group in groups.values():
            group.add(block)
    return groups


def orphan_outputs(blocks: Iterable[Block], groups: dict[str, Group]) -> list[Block]:
    """testoutput blocks that no testcode took: Sphinx ignores them silently."""
    used = {id(test.output) for group in groups.values() for test in group.tests}
    return [b for b in blocks if b.kind == "testoutput" and id(b) not in used]
