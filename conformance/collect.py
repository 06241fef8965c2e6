"""pytest collection of spec documents: one item per (test block, group), in Sphinx's order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _pytest._code.code import TerminalRepr
from sybil import Document

from conformance.adapter import Adapter
from conformance.blocks import Block, SpecParser, SpecSyntaxError
from conformance.groups import Test, build_groups, orphan_outputs
from conformance.implementation import DOCTEST_GLOBAL_SETUP, selected
from conformance.runner import DocumentRun, new_namespace

NO_REQUIREMENT = "NO-REQUIREMENT"


class SpecFailure(AssertionError):
    """An example did not behave as the spec says; the message is the whole report."""


class SpecFile(pytest.File):
    """A spec document: parsed with sybil, grouped and run the way Sphinx does."""

    run: DocumentRun

    def collect(self) -> Iterator[SpecItem]:
        document = Document.parse(str(self.path), SpecParser())
        blocks = [ex.parsed for ex in document.examples() if isinstance(ex.parsed, Block)]
        skip_namespace: dict[str, Any] | None = None

        def skipped(block: Block) -> bool:
            nonlocal skip_namespace
            if block.skipif is None:
                return False
            if skip_namespace is None:
                skip_namespace = new_namespace(DOCTEST_GLOBAL_SETUP)
            return bool(eval(block.skipif, skip_namespace))  # noqa: S307 - Sphinx's :skipif:

        groups = build_groups(blocks, skipped)
        for output in orphan_outputs(blocks, groups):
            # Sphinx ignores such a block silently: a check that never runs has no teeth
            raise SpecSyntaxError(
                output.path, output.line, "testoutput follows no testcode of its group"
            )
        self.run = DocumentRun(groups, DOCTEST_GLOBAL_SETUP)
        adapter = selected()
        schedules = explored_schedules(self.config, adapter)
        for group in groups.values():
            for index, test in enumerate(group.tests):
                name = _item_name(test, group.name)
                yield SpecItem.from_parent(
                    self,
                    name=name,
                    test=test,
                    group=group.name,
                    last_of_group=index == len(group.tests) - 1,
                    adapter=adapter,
                )
                requirement = test.code.requirement
                if requirement is not None and requirement.explore:
                    for schedule in schedules:
                        yield SpecItem.from_parent(
                            self,
                            name=f"{name}[schedule {schedule}]",
                            test=test,
                            group=group.name,
                            last_of_group=False,
                            adapter=adapter,
                            schedule=schedule,
                        )

    def teardown(self) -> None:
        failures = self.run.cleanup_all() if hasattr(self, "run") else []
        if failures:
            raise SpecFailure("cleanup failed:\n" + "\n".join(failures))


def explored_schedules(config: pytest.Config, adapter: Adapter) -> list[str]:
    """The schedules explored examples run under: ``--schedule``, or ``--schedules N``."""
    if adapter.explorer is None:
        return []
    replay = config.getoption("schedule", None)
    if replay:
        return [replay]
    return adapter.explorer.schedules(config.getoption("schedules", 0) or 0)


def requirement_from_nodeid(nodeid: str) -> str | None:
    """``docs/fork.rst::FORK-CALLS-1:line42[g]`` -> ``FORK-CALLS-1`` (items are named so)."""
    name = nodeid.rpartition("::")[2]
    requirement = name.partition(":line")[0]
    requirement = requirement.partition("[")[0]
    return None if not requirement or requirement == NO_REQUIREMENT else requirement


def _item_name(test: Test, group: str) -> str:
    requirement = test.code.requirement
    name = f"{requirement.id if requirement else NO_REQUIREMENT}:line{test.code.line}"
    if test.code.groups != ("default",):
        name += f"[{group}]"
    return name


class SpecItem(pytest.Item):
    """One example of one requirement, run in one group's namespace."""

    def __init__(
        self,
        *,
        test: Test,
        group: str,
        last_of_group: bool,
        adapter: Adapter,
        schedule: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.test = test
        self.group = group
        self.last_of_group = last_of_group
        self.adapter = adapter
        self.schedule = schedule
        requirement = test.code.requirement
        self.requirement_id = requirement.id if requirement else None
        self.profile = requirement.profile if requirement else None
        self.user_properties += [
            ("requirement", self.requirement_id or ""),
            ("profile", self.profile or ""),
            ("group", group),
            ("line", str(test.code.line)),
            ("schedule", schedule or ""),
        ]
        for warning_filter in adapter.warning_filters:
            self.add_marker(pytest.mark.filterwarnings(warning_filter))
        if requirement is not None:
            self.extra_keyword_matches.add(requirement.id)
            self.add_marker(f"profile_{requirement.profile}")
            self.add_marker(pytest.mark.requirement(requirement.id))
            if requirement.profile not in adapter.profiles:
                self.add_marker(
                    pytest.mark.skip(
                        reason=f"{requirement.id}: profile {requirement.profile!r} is not "
                        f"claimed by implementation {adapter.name!r}"
                    )
                )
            elif requirement.id in adapter.expected_failures:
                self.add_marker(
                    # not strict per example: a requirement is expected to fail when
                    # one of its examples does; the summary reports it as an
                    # unexpected pass (and fails the run) only if all of them pass
                    pytest.mark.xfail(
                        reason=f"{requirement.id}: {adapter.expected_failures[requirement.id]}",
                        raises=SpecFailure,
                        strict=False,
                    )
                )

    @property
    def parent_file(self) -> SpecFile:
        assert isinstance(self.parent, SpecFile)
        return self.parent

    def runtest(self) -> None:
        run = self.parent_file.run
        if self.schedule is None:
            failure = run.run(self.group, self.test)
        else:
            explorer = self.adapter.explorer
            assert explorer is not None
            with explorer.use(self.schedule):
                failure = run.run(self.group, self.test, variant=self.schedule)
            if failure is not None:
                failure = f"{self.replay_hint()}\n{failure}"
        if failure is not None:
            raise SpecFailure(failure)

    def replay_hint(self) -> str:
        return (
            f"under schedule {self.schedule}; replay with: forkwait-conformance "
            f"--impl {self.adapter.name} --schedule {self.schedule} -k {self.requirement_id}"
        )

    def teardown(self) -> None:
        if self.last_of_group:
            failure = self.parent_file.run.cleanup(self.group)
            if failure is not None:
                raise SpecFailure(f"cleanup of group {self.group!r} failed:\n{failure}")

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, SpecFailure):
            return f"{self.headline()}\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def headline(self) -> str:
        where = f"{self.path}, line {self.test.code.line}, group {self.group!r}"
        if self.requirement_id is None:
            return f"example outside any requirement at {where}"
        return f"{self.requirement_id} (profile {self.profile}) failed at {where}"

    def reportinfo(self) -> tuple[str, int, str]:
        return str(self.path), self.test.code.line - 1, self.name
