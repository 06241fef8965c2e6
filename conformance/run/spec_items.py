"""The conformance layer's items: every example of a requirement, run against ``fw``.

Built on the generic Sphinx doctest items: the same groups, namespaces and
runner, plus what a conformance run needs - names that survive prose edits
(``FORK-CALLS-1[2]``: requirement ID and example number), the requirement's
profile and level as markers and JUnit properties, skips for unclaimed
profiles and declared hangs, strict per-example expected failures, extra runs
under controlled schedules, and failures that quote the rule they broke.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from _pytest._code.code import TerminalRepr
from docutils import nodes

from conformance.adapter import Adapter
from conformance.catalog.requirements import Requirement, is_example, walk_document
from conformance.sphinx_doctest.collectors import DocumentFile
from conformance.sphinx_doctest.items import DoctestFailed, DoctestItem
from conformance.sphinx_doctest.runners import RunResult
from conformance.sphinx_doctest.specs import TestSpec, default_name

#: the name prefix of an example that follows no requirement
OUTSIDE = "outside-requirements"
#: the group of examples that check the adapter's explorer: skipped for an adapter without one
EXPLORER_GROUP = "explorer"


@dataclass(frozen=True)
class RunOptions:
    """What the command line decided for every item of the run."""

    adapter: Adapter
    schedules: tuple[str, ...]
    strict: bool
    docs_url: str


@dataclass(frozen=True)
class ExampleOf:
    """Which requirement an example belongs to, and its number there (from 1)."""

    requirement: Requirement | None
    number: int


def examples_of(parent: DocumentFile) -> dict[int, ExampleOf]:
    """id(example node) -> ExampleOf, numbering each requirement's examples in order."""
    found: dict[int, ExampleOf] = {}
    counts: dict[str | None, int] = {}
    for node, requirement in walk_document(parent.project, parent.docname):
        if is_example(node):
            key = requirement.id if requirement else None
            counts[key] = counts.get(key, 0) + 1
            found[id(node)] = ExampleOf(requirement, counts[key])
    return found


def make_items(
    parent: DocumentFile, specs: list[TestSpec], options: RunOptions
) -> list[pytest.Item]:
    examples = examples_of(parent)
    items: list[pytest.Item] = []
    for spec in specs:
        node = spec.code.node if spec.code is not None else None
        example = examples.get(id(node)) if node is not None else None
        items += _items_for(parent, spec, example, options)
    return items


def _items_for(
    parent: DocumentFile, spec: TestSpec, example: ExampleOf | None, options: RunOptions
) -> Iterator[pytest.Item]:
    if example is None:  # a group with setup/cleanup only: not an example of anything
        yield DoctestItem.from_parent(parent, name=default_name(spec), spec=spec)
        return
    name = example_name(spec, example)
    yield SpecItem.from_parent(parent, name=name, spec=spec, example=example, options=options)
    requirement = example.requirement
    if requirement is not None and requirement.explore:
        for schedule in options.schedules:
            yield SpecItem.from_parent(
                parent,
                name=f"{name}[schedule {schedule}]",
                spec=spec,
                example=example,
                options=options,
                variant=schedule,
            )


def example_name(spec: TestSpec, example: ExampleOf) -> str:
    """``REQ-ID[n]``, plus ``[group]`` for a group other than ``default``."""
    requirement = example.requirement
    base = f"{requirement.id}[{example.number}]" if requirement else f"{OUTSIDE}[{spec.line}]"
    return base if spec.group == "default" else f"{base}[{spec.group}]"


def headline(
    requirement: Requirement, number: int, schedule: str | None, options: RunOptions
) -> str:
    """Which rule an example checks, in its words, with a link: the head of every failure."""
    anchor = nodes.make_id(f"req-{requirement.id}")
    lines = [
        f"{requirement.id} ({requirement.level}, profile {requirement.profile}), "
        f"example {number}" + (f", under schedule {schedule}" if schedule else "") + ":",
        textwrap.fill(requirement.text, width=96, initial_indent="  ", subsequent_indent="  "),
        f"  the rule: {options.docs_url}{requirement.docname}.html#{anchor}",
    ]
    if schedule is not None:
        lines.append(
            f"  under schedule {schedule}; replay with: forkwait-conformance "
            f"--impl {options.adapter.name} --schedule {schedule} -k {requirement.id}"
        )
    return "\n".join(lines)


def requirement_from_nodeid(nodeid: str) -> str | None:
    """``fork.rst::FORK-CALLS-1[2][schedule fifo]`` -> ``FORK-CALLS-1`` (items are named so)."""
    requirement = nodeid.rpartition("::")[2].partition("[")[0]
    return None if not requirement or requirement == OUTSIDE else requirement


class SpecItem(DoctestItem):
    """One example of one requirement (possibly under one controlled schedule)."""

    def __init__(self, *, example: ExampleOf, options: RunOptions, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: a SHOULD or MAY run without --strict: its failure is reported, not fatal
        self.lenient = False
        self.example = example
        self.options = options
        requirement = example.requirement
        self.requirement = requirement
        self.user_properties += [
            ("requirement", requirement.id if requirement else ""),
            ("profile", requirement.profile if requirement else ""),
            ("level", requirement.level if requirement else ""),
            ("example", str(example.number)),
            ("group", self.spec.group),
            ("line", str(self.spec.line or "")),
            ("schedule", self.variant or ""),
        ]
        for warning_filter in options.adapter.warning_filters:
            self.add_marker(pytest.mark.filterwarnings(warning_filter))
        if requirement is not None:
            self._mark(requirement)

    def _mark(self, requirement: Requirement) -> None:
        adapter = self.options.adapter
        self.extra_keyword_matches.add(requirement.id)
        self.add_marker(f"profile_{requirement.profile}")
        self.add_marker(pytest.mark.requirement(requirement.id))
        number = self.example.number
        skip = adapter.skip_entries.get(requirement.id)
        xfail = adapter.xfail_entries.get(requirement.id)
        if requirement.profile not in adapter.profiles:
            self._skip(
                f"{requirement.id}: profile {requirement.profile!r} is not claimed by "
                f"implementation {adapter.name!r}"
            )
        elif self.spec.group == EXPLORER_GROUP and adapter.explorer is None:
            self._skip(f"{requirement.id}: implementation {adapter.name!r} gives no explorer")
        elif skip is not None and skip.covers(number):
            self._skip(f"{requirement.id} example {number}: not run ({skip.reason})")
        elif xfail is not None and xfail.covers(number):
            self.user_properties.append(("expected", "failure"))
            self.add_marker(
                pytest.mark.xfail(
                    reason=f"{requirement.id} example {number}: {xfail.reason}",
                    raises=DoctestFailed,
                    strict=True,
                )
            )
        elif requirement.level != "MUST" and not self.options.strict:
            # a failed SHOULD is reported, but fails the run only under --strict
            self.lenient = True
            self.user_properties.append(("expected", "lenient"))

    def leniently(self, report: pytest.TestReport, call: pytest.CallInfo[None]) -> None:
        """A failed SHOULD (without --strict) is reported as an expected failure, so that
        neither the exit status nor JUnit counts it; a pass stays a pass."""
        error = call.excinfo
        if self.lenient and report.failed and error and error.errisinstance(DoctestFailed):
            requirement = self.requirement
            assert requirement is not None
            report.outcome = "skipped"
            report.wasxfail = (
                f"{requirement.id} is a {requirement.level}: not met (fails the run only "
                "with --strict)"
            )

    def _skip(self, reason: str) -> None:
        self.add_marker(pytest.mark.skip(reason=reason))
        self.replayable = False  # never run: not even to rebuild a namespace

    def execute(self) -> RunResult | None:
        if self.variant is None:
            return super().execute()
        explorer = self.options.adapter.explorer
        assert explorer is not None
        with explorer.use(self.variant):
            return super().execute()

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        detail = super().repr_failure(excinfo, style)
        return f"{self.headline()}\n\n{detail}"

    def headline(self) -> str:
        if self.requirement is None:
            return f"an example outside any requirement ({self.path}, line {self.spec.line})"
        return headline(self.requirement, self.example.number, self.variant, self.options)
