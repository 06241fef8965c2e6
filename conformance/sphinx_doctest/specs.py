"""What a document's items run: one test of one group each, in Sphinx's order."""

from __future__ import annotations

from dataclasses import dataclass

from sphinx.ext.doctest import TestGroup

from conformance.sphinx_doctest.model import Block, block_of


@dataclass(frozen=True)
class TestSpec:
    """What one item runs: test ``index`` of ``group``, or a group without tests."""

    group: str
    #: position in the group's tests; None for a group with setup/cleanup only
    index: int | None
    code: Block | None = None
    output: Block | None = None
    #: where the block is, unique within its document: "line12", "docstring of m.f#2"
    where: str = ""

    @property
    def kind(self) -> str:
        return "group" if self.code is None else str(self.code.type)

    @property
    def line(self) -> int | None:
        """The line of the test's directive, as people see it in the source."""
        if self.code is None or self.code.node is None:
            return None
        return self.code.node.line


def test_specs(groups: dict[str, TestGroup]) -> list[TestSpec]:
    """The document's items-to-be, in the order ``test_doc`` runs them."""
    specs: list[TestSpec] = []
    seen: dict[tuple[str, str], int] = {}
    for name, group in groups.items():
        if not group.tests:
            specs.append(TestSpec(name, None))
        for index, test in enumerate(group.tests):
            output = block_of(test[1]) if len(test) == 2 and test[1] is not None else None
            code = block_of(test[0])
            place = (
                f"line{code.node.line}"
                if code.node is not None and code.node.line
                else (code.location.label)
            )
            count = seen[(name, place)] = seen.get((name, place), 0) + 1
            where = place if count == 1 else f"{place}#{count}"
            specs.append(TestSpec(name, index, code, output, where))
    return specs


def default_name(spec: TestSpec) -> str:
    """``testcode:line12``, with ``[group]`` unless the group is ``default``."""
    if spec.code is None:
        return f"group:{spec.group}"
    suffix = "" if spec.group == "default" else f"[{spec.group}]"
    return f"{spec.kind}:{spec.where}{suffix}"
