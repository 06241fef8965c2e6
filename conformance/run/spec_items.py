"""The conformance layer's items: every example of a requirement, run against ``fw``.

Built on the generic Sphinx doctest items: the same groups, namespaces and
runner, plus what a conformance run needs - names that survive prose edits
(``FORK-CALLS-1[2]``: requirement ID and example number), the requirement's
profile and level as markers and JUnit properties, skips for unclaimed
profiles and declared hangs, strict per-example expected failures, extra runs
under controlled schedules, and failures that quote the rule they broke.
"""

from __future__ import annotations

import os
import shlex
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sybil.integration.pytest import SybilItem

from conformance.adapter import Adapter
from conformance.catalog.nodes import PROBE_GROUP_PREFIX
from conformance.catalog.requirements import Requirement, is_example, is_probe, walk_document
from conformance.run.spec_html import rule_link
from conformance.sphinx_doctest.collectors import DocumentFile
from conformance.sphinx_doctest.document import SphinxExample
from conformance.sphinx_doctest.evaluators import DoctestFailed
from conformance.sphinx_doctest.specs import TestSpec

#: the name prefix of an example that follows no requirement
OUTSIDE = "outside-requirements"
#: the group of examples that check the adapter's explorer: their requirement's examples and
#: probes are skipped for an adapter without one
EXPLORER_GROUP = "explorer"


@dataclass(frozen=True)
class RunOptions:
    """What the command line decided for every item of the run."""

    #: the adapter as data (the executor described it): no ``fw``, no explorer
    adapter: Adapter
    schedules: tuple[str, ...]
    strict: bool
    docs_url: str
    #: examples only, no probes (``--quick``)
    quick: bool = False
    #: does the adapter give an explorer (its schedules run in the executor)?
    explores: bool = False
    #: the --impl this run was given (an adapter's name need not be how it is found)
    impl: str = ""
    #: the --spec-root this run was given, if any
    spec_root: str = ""


@dataclass(frozen=True)
class ExampleOf:
    """Which requirement an example belongs to, and its number there (from 1).

    A requirement's probes (``.. probes::``) are numbered after its examples, so that
    an expected-failures entry names either kind by one number.
    """

    requirement: Requirement | None
    number: int
    probe: bool = False
    #: its requirement checks the adapter's explorer (it has examples in EXPLORER_GROUP)
    needs_explorer: bool = False

    @property
    def kind(self) -> str:
        return "probe" if self.probe else "example"


def examples_of(parent: DocumentFile) -> dict[int, ExampleOf]:
    """id(example node) -> ExampleOf, numbering each requirement's examples in order."""
    found: dict[int, ExampleOf] = {}
    counts: dict[str | None, int] = {}
    document = parent.document
    examples = [
        (node, requirement)
        for node, requirement in walk_document(document.project, document.docname)
        if is_example(node)
    ]
    # the probes of such a requirement need the explorer as much as its examples do
    explorers = {r.id for node, r in examples if r and EXPLORER_GROUP in node.get("groups", ())}
    for node, requirement in examples:
        key = requirement.id if requirement else None
        counts[key] = counts.get(key, 0) + 1
        needs = key in explorers
        found[id(node)] = ExampleOf(requirement, counts[key], is_probe(node), needs)
    return found


def make_items(
    parent: DocumentFile, examples: list[SphinxExample], options: RunOptions
) -> list[pytest.Item]:
    numbered = examples_of(parent)
    items: list[pytest.Item] = []
    for example in examples:
        code = example.spec.code
        node = code.node if code is not None else None
        of = numbered.get(id(node)) if node is not None else None
        items += _items_for(parent, example, of, options)
    return items


def _items_for(
    parent: DocumentFile, example: SphinxExample, of: ExampleOf | None, options: RunOptions
) -> Iterator[pytest.Item]:
    sybil = parent.sybil
    if of is None:  # a group with setup/cleanup only: not an example of anything
        if not (options.quick and example.spec.group.startswith(PROBE_GROUP_PREFIX)):
            yield SybilItem.from_parent(parent, sybil=sybil, example=example)
        return
    if of.probe and options.quick:
        return
    example.name = example_name(example.spec, of)
    yield SpecItem.from_parent(parent, sybil=sybil, example=example, of=of, options=options)
    requirement = of.requirement
    if requirement is not None and requirement.explore:
        for schedule in options.schedules:
            variant = example.variant_of(schedule, f"{example.name}[schedule {schedule}]")
            yield SpecItem.from_parent(parent, sybil=sybil, example=variant, of=of, options=options)


def example_name(spec: TestSpec, example: ExampleOf) -> str:
    """``REQ-ID[n]``, plus ``[group]`` for a group other than ``default`` (or the probes')."""
    requirement = example.requirement
    base = f"{requirement.id}[{example.number}]" if requirement else f"{OUTSIDE}[{spec.line}]"
    plain = spec.group == "default" or spec.group.startswith(PROBE_GROUP_PREFIX)
    return base if plain else f"{base}[{spec.group}]"


def requirement_of(nodeid: str) -> str:
    """The requirement an item's node id names, as example_name wrote it
    (``fork.rst::FORK-CALLS-1[2]`` -> ``FORK-CALLS-1``; empty outside any): for the
    xdist controller, which knows the node id of an example a dead worker ran, not its
    item."""
    requirement = nodeid.rpartition("::")[2].partition("[")[0]
    return "" if requirement == OUTSIDE else requirement


def headline(
    requirement: Requirement,
    number: int,
    schedule: str | None,
    options: RunOptions,
    kind: str = "example",
) -> str:
    """Which rule an example checks, in its words, with a link: the head of every failure."""
    lines = [
        f"{requirement.id} ({requirement.level}, profile {requirement.profile}), "
        f"{kind} {number}" + (f", under schedule {schedule}" if schedule else "") + ":",
        textwrap.fill(requirement.text, width=96, initial_indent="  ", subsequent_indent="  "),
        f"  the rule: {rule_link(options.docs_url, requirement.docname, requirement.id)}",
    ]
    if schedule is not None:
        impl = shlex.quote(options.impl or options.adapter.name)
        root = f" --spec-root {shlex.quote(options.spec_root)}" if options.spec_root else ""
        lines.append(
            f"  under schedule {schedule}; replay with: forkwait-conformance "
            f"--impl {impl} --schedule {shlex.quote(schedule)} -k {requirement.id}{root}"
        )
    return "\n".join(lines)


def first_code_line(spec: TestSpec) -> int | None:
    """The .rst line of an example's first code line: the one its failure names."""
    location = getattr(spec.code, "location", None)
    return getattr(location, "line", None) or spec.line


class SpecItem(SybilItem):
    """One example of one requirement (possibly under one controlled schedule).

    A subclass of sybil's item, not sybil's item itself, because the
    conformance layer tells spec examples apart by class (isolation.py arms
    the executor's deadlines for them only) and sets their markers as they are made.
    """

    def __init__(self, *, of: ExampleOf, options: RunOptions, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        sphinx = self.example
        assert isinstance(sphinx, SphinxExample)
        self.sphinx = sphinx
        self.of = of
        self.options = options
        requirement = of.requirement
        self.requirement = requirement
        self.user_properties += [
            ("requirement", requirement.id if requirement else ""),
            ("profile", requirement.profile if requirement else ""),
            ("level", requirement.level if requirement else ""),
            ("example", str(of.number)),
            ("kind", of.kind),
            ("group", sphinx.spec.group),
            ("line", str(first_code_line(sphinx.spec) or "")),
            ("schedule", sphinx.variant or ""),
        ]
        sphinx.headline = self.headline
        for warning_filter in options.adapter.warning_filters:
            self.add_marker(pytest.mark.filterwarnings(warning_filter))
        if requirement is not None:
            self._mark(requirement)

    def _mark(self, requirement: Requirement) -> None:
        adapter = self.options.adapter
        self.extra_keyword_matches.add(requirement.id)
        self.add_marker(f"profile_{requirement.profile}")
        self.add_marker(pytest.mark.requirement(requirement.id))
        number = self.of.number
        skip = adapter.skip_entries.get(requirement.id)
        xfail = adapter.xfail_entries.get(requirement.id)
        if requirement.profile not in adapter.profiles:
            self._skip(
                f"{requirement.id}: profile {requirement.profile!r} is not claimed by "
                f"implementation {adapter.name!r}"
            )
        elif self.of.needs_explorer and not self.options.explores:
            self._skip(f"{requirement.id}: implementation {adapter.name!r} gives no explorer")
        elif skip is not None and skip.covers(number):
            self._skip(f"{requirement.id} example {number}: not run ({skip.reason})")
        elif xfail is not None and xfail.covers(number):
            # a flaky one (its outcome depends on timing) may pass too: counted apart
            self.user_properties.append(("expected", "flaky" if xfail.flaky else "failure"))
            self.add_marker(
                pytest.mark.xfail(
                    reason=f"{requirement.id} example {number}: {xfail.reason}",
                    raises=DoctestFailed,
                    strict=not xfail.flaky,
                )
            )
        # A failed SHOULD or MAY is a failure like any other (pytest, JUnit and the table
        # all say "failed"); whether it fails the run is the verdict's call (reporter.py).

    def _skip(self, reason: str) -> None:
        self.add_marker(pytest.mark.skip(reason=reason))
        self.sphinx.replayable = False  # never run: not even to rebuild a namespace

    def readable_failure(self, text: str) -> str:
        """A failure as a user reads it: paths relative to the spec folder ("wait.rst",
        not a site-packages path); a timeout is said as one by isolation.py."""
        return text.replace(f"{self.sphinx.sphinx_document.project.srcdir}{os.sep}", "")

    def headline(self) -> str:
        if self.requirement is None:
            return f"an example outside any requirement ({self.path}, line {self.sphinx.spec.line})"
        return headline(
            self.requirement, self.of.number, self.sphinx.variant, self.options, self.of.kind
        )
