"""Read what a run recorded and compare two runs, per document, with readable diffs.

Pure functions over the files a run leaves: the recorder's events (JSON lines),
the order log (``<pid>\\t<label>`` lines, ``<pid>\\t@doc <docname>`` when a process
moves to another document), ``output.txt`` of ``sphinx-build -b doctest`` and the
JUnit XML of pytest. Importing this module patches nothing.
"""

from __future__ import annotations

import difflib
import json
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUTSIDE = "(outside any document)"
SETUP = " (setup code)"
CLEANUP = " (cleanup code)"
# fields that differ between two faithful runs
VOLATILE = ("pid", "item")
MAX_DIFF_LINES = 80

Event = dict[str, Any]


# --- events -------------------------------------------------------------------------------


def read_events(path: Path) -> list[Event]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def events_by_document(events: Iterable[Event]) -> dict[str, list[Event]]:
    """The events of each document in the order they were written, without volatile fields."""
    by_doc: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        doc = event.get("doc") or OUTSIDE
        by_doc[doc].append({k: v for k, v in event.items() if k not in VOLATILE})
    return dict(by_doc)


def render_events(events: Sequence[Event]) -> list[str]:
    """One block of ``key: value`` lines per event, so that a diff points at the field."""
    lines: list[str] = []
    for number, event in enumerate(events):
        lines.append(f"#{number} {event['event']} {event.get('test', {}).get('name')!r}")
        for key, value in sorted(event.items()):
            if key in {"event", "doc"}:
                continue
            if isinstance(value, dict):
                lines.extend(f"    {key}.{k}: {json.dumps(v)}" for k, v in sorted(value.items()))
            elif key == "examples":
                for index, example in enumerate(value):
                    lines.extend(
                        f"    examples[{index}].{k}: {json.dumps(v)}" for k, v in example.items()
                    )
            else:
                lines.append(f"    {key}: {json.dumps(value)}")
    return lines


# --- order log ----------------------------------------------------------------------------


@dataclass
class OrderLog:
    """The order log split per document, and the order documents were entered in."""

    by_doc: dict[str, list[str]] = field(default_factory=dict)
    documents: list[str] = field(default_factory=list)
    pids: set[str] = field(default_factory=set)


def read_order(path: Path) -> OrderLog:
    log = OrderLog()
    current: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    by_doc: dict[str, list[str]] = defaultdict(list)
    for line in lines:
        pid, _, label = line.partition("\t")
        log.pids.add(pid)
        if label.startswith("@doc "):
            current[pid] = label.removeprefix("@doc ")
            continue
        doc = current.get(pid, OUTSIDE)
        if doc not in by_doc:
            log.documents.append(doc)
        by_doc[doc].append(label)
    log.by_doc = dict(by_doc)
    return log


# --- comparison ---------------------------------------------------------------------------


def _diff(expected: Sequence[str], actual: Sequence[str], what: str) -> str:
    lines = list(
        difflib.unified_diff(
            list(expected), list(actual), f"sphinx-build: {what}", f"plugin: {what}", lineterm=""
        )
    )
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"... ({len(lines) - MAX_DIFF_LINES} more diff lines)"]
    return "\n".join(lines)


def compare_events(sphinx: list[Event], plugin: list[Event]) -> list[str]:
    """One readable diff per document whose events differ (empty: equal)."""
    a, b = events_by_document(sphinx), events_by_document(plugin)
    problems = []
    for doc in sorted(a.keys() | b.keys()):
        left, right = a.get(doc, []), b.get(doc, [])
        if left != right:
            problems.append(
                f"document {doc!r}: {len(left)} events from sphinx-build, "
                f"{len(right)} from the plugin\n"
                + _diff(render_events(left), render_events(right), f"events of {doc}")
            )
    return problems


def compare_order(sphinx: OrderLog, plugin: OrderLog) -> list[str]:
    """Per-document diffs of the order logs."""
    problems = []
    for doc in sorted(sphinx.by_doc.keys() | plugin.by_doc.keys()):
        left, right = sphinx.by_doc.get(doc, []), plugin.by_doc.get(doc, [])
        if left != right:
            problems.append(f"document {doc!r}:\n" + _diff(left, right, f"order log of {doc}"))
    return problems


def run_order(events: Iterable[Event]) -> list[str]:
    """The documents in the order their tests ran (their first ``run`` event).

    Not the order log's: ``:skipif:`` runs doctest_global_setup when Sphinx reaches
    a document, but while the plugin collects it (before any test runs), a
    documented difference; each document's own log is compared in full.
    """
    order: list[str] = []
    for event in events:
        doc = str(event.get("doc"))
        if event.get("event") == "run" and doc not in order:
            order.append(doc)
    return order


def compare_run_order(sphinx: list[Event], plugin: list[Event]) -> list[str]:
    left, right = run_order(sphinx), run_order(plugin)
    if left == right:
        return []
    return ["documents ran in another order:\n" + _diff(left, right, "documents in order")]


# --- sphinx-build's summary ---------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """The numbers at the end of ``output.txt``."""

    tests: int
    failures: int
    setup_failures: int
    cleanup_failures: int
    fail_fast_header: bool = False


SUMMARY_RE = re.compile(
    r"^Doctest summary(?P<ff> \(exiting after first failed test\))?\n=+\n"
    r"\s*(?P<tests>\d+) tests?\n"
    r"\s*(?P<failures>\d+) failures? in tests\n"
    r"\s*(?P<setup>\d+) failures? in setup code\n"
    r"\s*(?P<cleanup>\d+) failures? in cleanup code\n",
    re.MULTILINE,
)


def read_summary(output_txt: Path) -> Summary | None:
    match = SUMMARY_RE.search(output_txt.read_text(encoding="utf-8"))
    if match is None:
        return None
    return Summary(
        int(match["tests"]),
        int(match["failures"]),
        int(match["setup"]),
        int(match["cleanup"]),
        match["ff"] is not None,
    )


# --- tests as Sphinx ran them, and pytest items -------------------------------------------


@dataclass
class SphinxTest:
    """One DocTest the test runner ran (a doctest block or a testcode)."""

    doc: str
    group: str
    filename: str
    line: str
    kind: str
    failures: int = 0
    tries: int = 0

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.doc, self.filename, self.line, self.group, self.kind)


@dataclass
class SphinxRun:
    """What sphinx-build ran, from the recorder's events."""

    tests: list[SphinxTest] = field(default_factory=list)
    # (doc, group) -> failures of its setup / of its cleanup DocTest
    setup_failures: dict[tuple[str, str], int] = field(default_factory=dict)
    cleanup_failures: dict[tuple[str, str], int] = field(default_factory=dict)

    def groups(self) -> set[tuple[str, str]]:
        return (
            {(t.doc, t.group) for t in self.tests}
            | self.setup_failures.keys()
            | self.cleanup_failures.keys()
        )


def _line(value: object) -> str:
    return "" if value is None else str(value)


def sphinx_run(events: Iterable[Event]) -> SphinxRun:
    run = SphinxRun()
    open_tests: dict[tuple[str, str, str, object], list[SphinxTest]] = defaultdict(list)
    for event in events:
        doc = event.get("doc") or OUTSIDE
        test = event["test"]
        name: str = test["name"]
        if event["event"] == "run" and not name.endswith((SETUP, CLEANUP)):
            kind = "testcode" if test["docstring"] is None else "doctest"
            item = SphinxTest(doc, name, test["filename"], _line(test["lineno"]), kind)
            run.tests.append(item)
            open_tests[doc, name, test["filename"], test["lineno"]].append(item)
        elif event["event"] == "run_end":
            if name.endswith(SETUP):
                run.setup_failures[doc, name.removesuffix(SETUP)] = event.get("failures", 1)
            elif name.endswith(CLEANUP):
                run.cleanup_failures[doc, name.removesuffix(CLEANUP)] = event.get("failures", 1)
            else:
                done = open_tests[doc, name, test["filename"], test["lineno"]].pop(0)
                done.failures = event.get("failures", 1)
                done.tries = event.get("tries", 0)
    return run


@dataclass
class Item:
    """One pytest item, from the JUnit XML (a testcase may be split in two elements)."""

    name: str
    properties: dict[str, str]
    outcomes: list[str] = field(default_factory=list)
    duplicate: bool = False  # another item before it has the same node id

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        p = self.properties
        return (
            p.get("recorder_doc", OUTSIDE),
            p.get("sphinx_file", "?"),
            p.get("sphinx_line", ""),
            p.get("sphinx_group", "?"),
            p.get("sphinx_kind", "?"),
        )

    @property
    def group(self) -> tuple[str, str]:
        return (self.key[0], self.key[3])

    @property
    def failed(self) -> bool:
        return "failure" in self.outcomes

    @property
    def errored(self) -> bool:
        return any(o.startswith("error") for o in self.outcomes)

    @property
    def skipped(self) -> bool:
        return "skipped" in self.outcomes

    def describe(self) -> str:
        return f"item {self.name} {self.key} outcomes={self.outcomes}"


def read_junit(path: Path) -> list[Item]:
    """The items of a JUnit XML file, in its order.

    pytest writes a second ``testcase`` element for an item whose call failed and
    whose teardown errored: such an element is merged into the item before it. Any
    other repeated ``classname::name`` is a second item with the same node id.
    """
    items: list[Item] = []
    latest: dict[str, Item] = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        properties = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
        outcomes = []
        for child in case:
            if child.tag == "failure":
                outcomes.append("failure")
            elif child.tag == "error":
                phase = re.match(r"failed on (\w+)", child.get("message", ""))
                outcomes.append(f"error-{phase[1]}" if phase else "error")
            elif child.tag == "skipped":
                outcomes.append("skipped")
        previous = latest.get(name)
        if previous is not None and outcomes == ["error-teardown"] and previous.failed:
            previous.outcomes.extend(outcomes)
            continue
        item = Item(name, properties, outcomes or ["passed"], duplicate=previous is not None)
        latest[name] = item
        items.append(item)
    return items


def _check_tests(run: SphinxRun, pool: dict[Any, list[Item]]) -> Iterator[str]:
    """Match each test Sphinx ran with an item (consumed from ``pool``)."""
    for test in run.tests:
        candidates = pool.get(test.key)
        if not candidates:
            yield f"no item for the test Sphinx ran: {test}"
            continue
        item = candidates.pop(0)
        if item.failed != (test.failures > 0):
            yield f"{item.describe()}: Sphinx recorded {test.failures} failures"
        if item.skipped and test.tries:
            yield f"{item.describe()}: skipped, Sphinx tried {test.tries} examples"


def _check_unmatched(run: SphinxRun, pool: dict[Any, list[Item]]) -> Iterator[str]:
    """Items of tests Sphinx did not run: errors if their group's setup failed, else skipped."""
    for leftovers in pool.values():
        for item in leftovers:
            if run.setup_failures.get(item.group):
                if item.outcomes != ["error-setup"]:
                    yield f"{item.describe()}: its group's setup failed in Sphinx"
            elif item.outcomes != ["skipped"]:
                yield f"{item.describe()}: Sphinx did not run this test"


def _check_groups(run: SphinxRun, items: Sequence[Item]) -> Iterator[str]:
    """Group items, groups without tests, and which items may error."""
    by_group: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for item in items:
        by_group[item.group].append(item)
    tested = {(t.doc, t.group) for t in run.tests}
    for group in sorted(run.groups() | by_group.keys()):
        members = by_group.get(group, [])
        broken = bool(run.setup_failures.get(group) or run.cleanup_failures.get(group))
        if group in run.groups() and group not in tested and not members:
            yield f"no item for the group Sphinx ran without tests: {group}"
        for item in members:
            if item.key[4] == "group" and (item.failed or item.errored) != broken:
                yield f"{item.describe()}: its setup/cleanup failed in Sphinx: {broken}"
            elif item.errored and not broken:
                yield f"{item.describe()}: an error, but its group's setup and cleanup passed"
        if broken and not any(i.errored or (i.failed and i.key[4] == "group") for i in members):
            yield f"group {group}: its setup or cleanup failed in Sphinx, no item says so"


def check_items(run: SphinxRun, items: Sequence[Item]) -> list[str]:
    """Item-level consistency of the plugin's outcomes with what Sphinx ran.

    - node ids are unique;
    - every test Sphinx ran has one item (matched by document, file, line, group and
      kind, in order), which failed iff Sphinx recorded a failure or an unexpected
      exception for it, and is skipped only if Sphinx tried none of its examples;
    - an item Sphinx did not run is an error (in setup) when Sphinx's setup of its
      group failed, else it is skipped;
    - a ``group`` item fails or errors iff its group's setup or cleanup failed; a
      group Sphinx ran without tests has an item; a group whose setup or cleanup
      failed has an error or a failing ``group`` item; no other item errors.
    """
    problems = [
        f"{item.describe()}: a node id used by an earlier item" for item in items if item.duplicate
    ]
    pool: dict[Any, list[Item]] = defaultdict(list)
    for item in items:
        if item.key[4] != "group":
            pool[item.key].append(item)
    problems += _check_tests(run, pool)
    problems += _check_unmatched(run, pool)
    problems += _check_groups(run, items)
    return problems


def iter_documents(srcdir: Path, excluded: Sequence[str] = ()) -> Iterator[str]:
    """The docnames of the ``.rst`` files under ``srcdir`` (not under ``excluded``)."""
    for path in sorted(srcdir.rglob("*.rst")):
        docname = path.relative_to(srcdir).with_suffix("").as_posix()
        if not any(docname.startswith(f"{prefix}/") for prefix in excluded):
            yield docname
