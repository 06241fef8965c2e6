"""The comparison helpers of the differential suite, on hand-made inputs (no subprocess)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.sphinx_doctest.compare import (
    OUTSIDE,
    Item,
    Summary,
    check_items,
    compare_events,
    compare_order,
    compare_run_order,
    read_junit,
    read_order,
    read_summary,
    run_order,
    sphinx_run,
)


def event(kind: str, doc: str, name: str, lineno: int | None = 3, **extra: Any) -> dict[str, Any]:
    test: dict[str, Any] = {"name": name, "filename": f"{doc}.rst", "lineno": lineno}
    if kind == "run":
        test["docstring"] = extra.pop("docstring", None)
    return {"event": kind, "pid": 1, "doc": doc, "item": None, "test": test, **extra}


def test_order_log_is_split_per_process_and_document(tmp_path: Path) -> None:
    log = tmp_path / "order.log"
    log.write_text("1\tglobal-setup\n1\t@doc a\n1\tx\n2\t@doc b\n2\ty\n1\tz\n2\t@doc a/b\n")
    order = read_order(log)
    assert order.by_doc == {OUTSIDE: ["global-setup"], "a": ["x", "z"], "b": ["y"]}
    assert order.documents == [OUTSIDE, "a", "b"]
    assert order.pids == {"1", "2"}
    same = read_order(log)
    assert compare_order(order, same) == []
    same.by_doc["a"].reverse()
    assert compare_order(order, same)


def test_documents_run_order_comes_from_run_events() -> None:
    sphinx = [event("run", "a", "default"), event("run", "b", "default")]
    assert run_order(sphinx) == ["a", "b"]
    assert compare_run_order(sphinx, sphinx) == []
    assert compare_run_order(sphinx, sphinx[::-1])


def test_events_differ_per_document_and_field() -> None:
    sphinx = [
        event("success", "a", "default", got="1\n"),
        event("success", "b", "default", got="2\n"),
    ]
    plugin = [
        {**event("success", "b", "default", got="2\n"), "pid": 7, "item": "b.rst::x"},
        event("success", "a", "default", got="one\n"),
    ]
    problems = compare_events(sphinx, plugin)
    assert len(problems) == 1
    assert problems[0].startswith("document 'a'")
    assert '-    got: "1\\n"' in problems[0]
    assert '+    got: "one\\n"' in problems[0]
    assert compare_events(sphinx, sphinx) == []
    assert compare_events(sphinx, []), "a missing document is a difference"


def test_summary_is_parsed(tmp_path: Path) -> None:
    output = tmp_path / "output.txt"
    output.write_text(
        "Results\n\nDoctest summary (exiting after first failed test)\n"
        "=================================================\n"
        "    6 tests\n    1 failure in tests\n    0 failures in setup code\n"
        "    2 failures in cleanup code\n"
    )
    assert read_summary(output) == Summary(6, 1, 0, 2, fail_fast_header=True)


def test_junit_split_teardown_is_merged_and_duplicates_are_flagged(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    props = '<properties><property name="sphinx_group" value="g"/></properties>'
    junit.write_text(
        "<testsuites><testsuite>"
        f'<testcase classname="a.rst" name="t1">{props}<failure message="x"/></testcase>'
        f'<testcase classname="a.rst" name="t1">{props}'
        '<error message="failed on teardown with &quot;x&quot;"/></testcase>'
        f'<testcase classname="a.rst" name="t2">{props}<skipped/></testcase>'
        f'<testcase classname="a.rst" name="t2">{props}</testcase>'
        "</testsuite></testsuites>"
    )
    items = read_junit(junit)
    assert [(i.name, i.outcomes, i.duplicate) for i in items] == [
        ("a.rst::t1", ["failure", "error-teardown"], False),
        ("a.rst::t2", ["skipped"], False),
        ("a.rst::t2", ["passed"], True),
    ]
    assert items[0].properties == {"sphinx_group": "g"}


def item(name: str, line: str, group: str, kind: str, *outcomes: str) -> Item:
    properties = {
        "recorder_doc": "a",
        "sphinx_file": "a.rst",
        "sphinx_line": line,
        "sphinx_group": group,
        "sphinx_kind": kind,
    }
    return Item(name, properties, list(outcomes))


def test_items_are_checked_against_what_sphinx_ran() -> None:
    events = [
        event("run", "a", "ok", 3),
        event("run_end", "a", "ok", 3, failures=0, tries=1),
        event("run", "a", "ok", 9, docstring=">>> 1\n2\n"),
        event("failure", "a", "ok", 9),
        event("run_end", "a", "ok", 9, failures=1, tries=1),
        event("run", "a", "bad (setup code)", 0),
        event("run_end", "a", "bad (setup code)", 0, failures=1, tries=1),
        event("run", "a", "lonely (cleanup code)", 0),
        event("run_end", "a", "lonely (cleanup code)", 0, failures=0, tries=1),
    ]
    run = sphinx_run(events)
    assert [(t.group, t.line, t.kind, t.failures) for t in run.tests] == [
        ("ok", "3", "testcode", 0),
        ("ok", "9", "doctest", 1),
    ]
    items = [
        item("t3", "3", "ok", "testcode", "passed"),
        item("t9", "9", "ok", "doctest", "failure"),
        item("t5", "5", "bad", "testcode", "error-setup"),
        item("lonely", "", "lonely", "group", "passed"),
    ]
    assert check_items(run, items) == []
    wrong = [
        item("t3", "3", "ok", "testcode", "failure"),  # Sphinx passed it
        item("t5", "5", "bad", "testcode", "passed"),  # its setup failed
        item("extra", "7", "ok", "testcode", "passed"),  # Sphinx never ran it
    ]
    problems = check_items(run, wrong)
    assert any("t3" in p and "0 failures" in p for p in problems)
    assert any("no item for the test Sphinx ran" in p and "line='9'" in p for p in problems)
    assert any("t5" in p and "setup failed" in p for p in problems)
    assert any("extra" in p and "did not run" in p for p in problems)
    assert any("no item for the group Sphinx ran without tests" in p for p in problems)
