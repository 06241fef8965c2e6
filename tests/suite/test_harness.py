"""The conformance layer on small spec documents: groups, failures, profiles, adapters.

Sphinx's own semantics are proven against ``sphinx-build`` by
tests/sphinx_doctest; these tests check what the conformance layer adds on top:
names, requirement headlines, the summary, expected failures and skips.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.adapter import Adapter, AdapterError, load_adapter
from conformance.reports.json_report import read_report
from tests.paths import FIXTURES
from tests.running import run_spec

pytest_plugins = ["pytester"]


def run_fixture(pytester: pytest.Pytester, name: str, *args: str) -> pytest.RunResult:
    return run_spec(pytester, "-rA", *args, fixture=name)


def passed_in_order(result: pytest.RunResult) -> list[str]:
    return [
        line.split("::")[1].split()[0]
        for line in result.outlines
        if line.startswith("PASSED ") and "::" in line
    ]


def test_groups_follow_sphinx_semantics(pytester: pytest.Pytester) -> None:
    result = run_fixture(pytester, "groups.rst")
    result.assert_outcomes(passed=7)
    # Sphinx's order: all of group default (its '*' block last), then group other;
    # items are named by requirement and example number, whatever the prose around them
    assert passed_in_order(result) == [
        "GROUP-SETUP-1[1]",
        "GROUP-STAR-1[2]",
        "GROUP-HIDDEN-1[1]",
        "GROUP-STAR-1[1]",
        "GROUP-FRESH-1[1][other]",
        "GROUP-STAR-1[3][other]",
        "GROUP-STAR-1[1][other]",
    ]


def test_selecting_one_example_rebuilds_its_group_namespace(pytester: pytest.Pytester) -> None:
    # GROUP-STAR-1[1] checks that an earlier test of its group ran: it is replayed
    result = run_fixture(pytester, "groups.rst", "-k", "GROUP-STAR-1 and not 2 and not 3")
    result.assert_outcomes(passed=2, deselected=5)


def test_failures_say_which_rule_broke_where_with_the_source(pytester: pytest.Pytester) -> None:
    result = run_fixture(pytester, "failing.rst")
    result.assert_outcomes(passed=2, failed=3)
    text = result.stdout.str()
    assert "FAIL-OUTPUT-1 (MUST, profile core), example 1:\n  Output is compared." in text
    assert "the rule: failing.html#req-fail-output-1" in text
    assert "failing.rst, line 12 printed something else than expected:" in text
    assert "  12 | print(1 + 1)" in text
    # below the headline every line is indented: a line at the margin is the harness's
    assert "\n  Expected:\n      3\n  Got:\n      2" in text
    # the traceback points at the raising line of the .rst file itself
    assert 'failing.rst", line 27, in <module>\n      raise KeyError("missing")' in text
    assert "KeyError: 'missing'" in text
    assert "exec(__forkwait_block__)" not in text
    assert "failed MUST requirements: FAIL-OUTPUT-1, FAIL-RAISES-1, FAIL-SILENT-1" in text


def test_summary_table_counts_requirements_per_profile(pytester: pytest.Pytester) -> None:
    result = run_fixture(pytester, "failing.rst")
    result.stdout.fnmatch_lines(["core*5*2*0*3*0*0*0*0", "all*5*2*0*3*0*0*0*0"])


def test_a_spec_document_sphinx_warns_about_fails_the_run_naming_it(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "noprofile.rst").write_text(
        "T\n=\n\n.. requirement:: X-1\n\n   Text.\n\n.. testcode::\n\n   pass\n"
    )
    result = run_spec(pytester, "--report", "r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "the run fails: Sphinx warned about the spec's documents (fix them)",
            "Sphinx warned about the spec's documents:",
            "*noprofile.rst:4*requirement X-1 needs a :profile:*",
        ]
    )

    assert "needs a :profile:" in read_report(pytester.path / "r.json").spec_warnings


def test_an_example_inside_a_requirement_is_an_error_naming_it(pytester: pytest.Pytester) -> None:
    (pytester.path / "nested.rst").write_text(
        "N\n=\n\n.. requirement:: N-1\n   :profile: core\n   :level: MUST\n\n   Text.\n\n"
        "   .. testcode::\n\n      print(1)\n"
    )
    result = run_spec(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*nested.rst, line 10: a testcode inside the text of requirement N-1*"]
    )


def test_a_duplicated_requirement_id_is_an_error(pytester: pytest.Pytester) -> None:
    doc = (
        "D\n=\n\n.. requirement:: D-1\n   :profile: core\n   :level: MUST\n\n   Text.\n\n"
        ".. testcode::\n\n   pass\n"
    )
    (pytester.path / "one.rst").write_text(doc)
    (pytester.path / "two.rst").write_text(doc)
    result = run_spec(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*requirement ID D-1 is defined twice*one.rst*two.rst*"])


ADAPTERS = """
from types import ModuleType
from conformance.adapter import Adapter
from conformance.catalog.expectations import Entry
import reference_impl

def _fw(names):
    fw = ModuleType("fw")
    for name in names:
        setattr(fw, name, getattr(reference_impl, name))
    return fw

ALL = ("fork", "wait", "Future", "Module", "ModuleList", "script", "ignore", "collect_all",
       "wait_all")

def core_only():
    return Adapter("core-only", "1", _fw(ALL), frozenset({"core"}),
                   {"FAIL-OUTPUT-1": "prints 2", "FAIL-EXPECTED-EXC-1": "wrongly listed"})

def per_example():
    return Adapter("per-example", "1", _fw(ALL), frozenset({"core"}),
                   {"FAIL-DOCTEST-1": Entry("the second example fails", frozenset({2}))})

def broken():
    fw = _fw(("fork",))
    fw.wait = 42
    return Adapter("broken", "1", fw, frozenset({"core", "async"}))

not_an_adapter = 42
"""


def test_unclaimed_profiles_skip_and_expected_failures_are_strict(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(my_adapters=ADAPTERS)
    (pytester.path / "async.rst").write_text(
        "A\n=\n\n.. requirement:: ASYNC-X-1\n   :profile: async\n   :level: MUST\n\n"
        "   Text MUST.\n\n"
        ".. testcode::\n\n   pass\n"
    )
    result = run_spec(pytester, "--impl", "my_adapters:core_only", "-rA", fixture="failing.rst")
    # FAIL-EXPECTED-EXC-1 passes although listed: an unexpected pass fails like a failure
    result.assert_outcomes(passed=1, failed=3, skipped=1, xfailed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = result.stdout.str()
    assert "profile 'async' is not claimed by implementation 'core-only'" in text
    assert "FAIL-OUTPUT-1 example 1: prints 2" in text
    assert "[XPASS(strict)] FAIL-EXPECTED-EXC-1 example 1: wrongly listed" in text
    assert (
        "expected to fail but passed (remove them from the expected failures): "
        "FAIL-EXPECTED-EXC-1" in text
    )


def test_an_expected_failure_covers_only_the_examples_it_names(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(my_adapters=ADAPTERS)
    doc = (
        "P\n=\n\n.. requirement:: FAIL-DOCTEST-1\n   :profile: core\n   :level: MUST\n\n"
        "   Text MUST.\n\n"
        ".. testcode::\n\n   print('regressed')\n\n.. testoutput::\n\n   fine\n\n"
        ".. testcode::\n\n   print('known bug')\n\n.. testoutput::\n\n   right\n"
    )
    (pytester.path / "per.rst").write_text(doc)
    report = pytester.path / "report.json"
    result = run_spec(pytester, "--impl", "my_adapters:per_example", "--report", str(report))
    result.assert_outcomes(failed=1, xfailed=1)  # example 1's regression is not hidden
    assert result.ret == pytest.ExitCode.TESTS_FAILED

    record = read_report(report).by_id()["FAIL-DOCTEST-1"]
    assert record.outcome == "failed"
    assert [(r.example, r.outcome, r.kind) for r in record.results] == [
        (1, "failed", "output"),
        (2, "xfailed", "output"),
    ]


def test_a_broken_adapter_fails_fast_listing_what_is_wrong(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(my_adapters=ADAPTERS)
    result = run_spec(pytester, "--impl", "my_adapters:broken", fixture="failing.rst")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*adapter 'broken' is broken: fw lacks Future, Module, ModuleList, collect_all, "
            "ignore, script, wait_all; fw names that are not callable: wait (int)*"
        ]
    )


def test_adapter_lookup_errors_are_clear(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(AdapterError, match=r"no implementation named 'refrence'; did you mean"):
        load_adapter("refrence")
    with pytest.raises(AdapterError, match=r"must be importable.*PYTHONPATH"):
        load_adapter("no_such_module_xyz:adapter")
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "adapters_mod.py").write_text(ADAPTERS)
    with pytest.raises(AdapterError, match="gave int, not a conformance Adapter"):
        load_adapter("adapters_mod:not_an_adapter")
    with pytest.raises(AdapterError, match="unknown profiles"):
        Adapter("x", "1", object(), frozenset({"fast"})).validate()


def test_an_adapter_factory_that_hangs_is_stopped_by_the_deadline(tmp_path: Path) -> None:
    (tmp_path / "hangs.py").write_text("import time\ndef adapter():\n    time.sleep(60)\n")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from conformance.adapter import load_adapter, AdapterError\n"
        "try:\n    load_adapter('hangs:adapter', deadline=0.5)\n"
        "except AdapterError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert "did not finish loading within 0.5 s" in done.stdout


def test_reference_is_registered_and_claims_its_profiles() -> None:
    adapter = load_adapter("reference")
    assert adapter.profiles == {"core", "async", "dynamic", "trace", "futures"}
    assert adapter.missing_names() == []


CLEANUP_DOC = """Cleanup
=======

.. requirement:: CLEAN-1
   :profile: core
   :level: MUST

   Cleanup runs after the group's tests.

.. testsetup::

   log = []

.. testcode::

   log.append("test")

.. testcleanup::

   assert log == ["test", "second"], log
   raise RuntimeError("cleanup ran and failed on purpose")

.. testcode::

   log.append("second")
"""


def test_cleanup_runs_after_the_last_test_of_its_group_and_reports_failures(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "cleanup.rst").write_text(CLEANUP_DOC)
    result = run_spec(pytester)
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        ["*cleanup code at *cleanup.rst, line 20 raised RuntimeError*", "*cleanup ran and failed*"]
    )


def test_markers_select_by_profile_and_keywords_by_requirement(pytester: pytest.Pytester) -> None:
    shutil.copy(FIXTURES / "failing.rst", pytester.path / "failing.rst")
    by_marker = run_spec(pytester, "-m", "profile_core", "-k", "FAIL-DOCTEST")
    by_marker.assert_outcomes(passed=1, deselected=4)
    none_async = run_spec(pytester, "-m", "profile_async")
    none_async.assert_outcomes(deselected=5)


def test_the_spec_passes_under_xdist_with_documents_kept_together() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "-n", "2", "-q"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "failed" not in result.stdout.splitlines()[-1]
    # the summary table, folded from the workers' reports: every requirement passed
    for level in ("MUST", "SHOULD"):
        row = rf"^all\s+{level}\s+(\d+)\s+\1(\s+0){{6}}$"
        assert re.search(row, result.stdout, re.MULTILINE), result.stdout
    # the verdict's counts are pytest's: "examples: 130/130 passed" and "130 passed in ..."
    examples = re.search(r"^examples: (\d+)/\1 passed$", result.stdout, re.MULTILINE)
    assert examples, result.stdout
    assert result.stdout.splitlines()[-1].startswith(f"{examples.group(1)} passed in ")
    assert re.search(r"^MUST: (\d+)/\1 passed$", result.stdout, re.MULTILINE)
    assert re.search(r"^verdict: reference conforms: core \d+/\d+ MUST", result.stdout, re.M)


def test_help_says_defaults_and_where_formats_are_documented() -> None:
    from conformance.command import build_parser  # noqa: PLC0415

    text = " ".join(build_parser().format_help().split())
    assert "(default: 30; 0: no limit)" in text
    assert "(default: 8; 0: none; at most 10000)" in text
    assert "section 'Levels, expected failures and skips'" in text
    assert "expectations.py" not in text  # no source file stands in for documentation
    assert "--strict fail the run when a SHOULD or MAY requirement fails too" in text
    assert "spec [--open]" in text
    assert "forkwait-conformance triage REPORT.json" in text


def test_the_first_lines_of_help_say_what_impl_names_and_where_the_guide_is() -> None:
    from conformance.command import build_parser  # noqa: PLC0415

    first = " ".join(build_parser().format_help().splitlines()[:12])
    assert "--impl NAME names the implementation under test" in first
    assert "conformance.adapter.Adapter or a function that returns one" in " ".join(first.split())
    assert 'the spec\'s page "Validating your implementation"' in first
    assert "forkwait-conformance spec --open" in first


def test_the_spec_command_builds_the_html_the_rule_links_point_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from conformance import __version__  # noqa: PLC0415
    from conformance.run import spec_html  # noqa: PLC0415

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached = spec_html.html_dir().as_uri() + "/"
    # until the pages are built, a rule's link says how to build them
    assert spec_html.rule_link(cached, "wait", "WAIT-SELF-1").endswith(
        "#req-wait-self-1 (not built yet: forkwait-conformance spec builds it)"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "spec"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    html = tmp_path / "forkwait-spec" / __version__ / "html"
    assert result.stdout.strip() == (html / "index.html").as_uri()
    # a failure's link, as a run of the installed spec writes it, lands on the rule's box
    assert spec_html.rule_link(cached, "wait", "WAIT-SELF-1") == spec_html.rule_url(
        cached, "wait", "WAIT-SELF-1"
    )  # built: the link is the URL alone
    url = spec_html.rule_url(cached, "wait", "WAIT-SELF-1")
    page, _, anchor = url.partition("#")
    text = Path(page.removeprefix("file://")).read_text(encoding="utf-8")
    assert f'id="{anchor}"' in text
    # make docs's pages: its theme and the spec's own stylesheet
    assert "_static/styles/furo.css" in text
    assert "_static/forkwait.css" in text


SHOULD_DOC = """Levels
======

.. requirement:: LEVEL-SHOULD-1
   :profile: core
   :level: SHOULD

   It SHOULD print 2.

.. testcode::

   print(3)

.. testoutput::

   2

.. requirement:: LEVEL-MUST-1
   :profile: core
   :level: MUST

   It MUST print 1.

.. testcode::

   print(1)

.. testoutput::

   1
"""


def test_a_failed_should_is_reported_and_fails_the_run_only_when_strict(
    pytester: pytest.Pytester,
) -> None:

    (pytester.path / "levels.rst").write_text(SHOULD_DOC)
    lenient = run_spec(pytester, "--report", "lenient.json", "--junitxml", "lenient.xml")
    assert lenient.ret == pytest.ExitCode.OK
    # one word for it everywhere: pytest's last line, the table, the verdict, JSON, JUnit
    lenient.assert_outcomes(passed=1, failed=1)
    lenient.stdout.fnmatch_lines(
        [
            "core*MUST*1*1*0*0*0*0*0*0",
            "core*SHOULD*1*0*0*1*0*0*0*0",
            "MUST: 1/1 passed",
            "SHOULD: 0/1 passed, 1 failed (a failed SHOULD or MAY fails the run only with "
            "--strict)",
            "examples: 1/2 passed, 1 failed",
        ]
    )
    report = read_report(pytester.path / "lenient.json")
    record = report.by_id()["LEVEL-SHOULD-1"]
    assert (record.level, record.outcome) == ("SHOULD", "failed")
    assert report.verdict().passed
    assert 'failures="1"' in (pytester.path / "lenient.xml").read_text()
    strict = run_spec(pytester, "--strict-levels", "--junitxml", "strict.xml")
    assert strict.ret == pytest.ExitCode.TESTS_FAILED
    strict.assert_outcomes(passed=1, failed=1)
    strict.stdout.fnmatch_lines(["the run fails: failed SHOULD or MAY requirements*LEVEL-SHOULD-1"])
    assert 'name="level" value="SHOULD"' in (pytester.path / "strict.xml").read_text()


HANGING_SHOULD = """\
Hangs
=====

.. requirement:: HANG-SHOULD-1
   :profile: core
   :level: SHOULD

   It SHOULD not hang.

.. testcode::

   import time
   time.sleep(30)
"""


def test_a_should_that_times_out_does_not_fail_the_run(pytester: pytest.Pytester) -> None:
    (pytester.path / "hangs.rst").write_text(HANGING_SHOULD)
    result = run_spec(pytester, "--example-timeout", "1", "--junitxml", "out.xml")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "  testcode at hangs.rst, line 12 timed out after 1 s (--example-timeout); it was at:",
            "SHOULD: 0/1 passed, 1 failed*",
        ]
    )
    assert "pytest_timeout.py" not in result.stdout.str()
    xml = (pytester.path / "out.xml").read_text()
    assert '<property name="failure_kind" value="timeout" />' in xml


def test_an_example_has_one_line_number_in_terminal_junit_and_json(
    pytester: pytest.Pytester,
) -> None:

    result = run_fixture(pytester, "failing.rst", "--junitxml", "out.xml", "--report", "r.json")
    result.stdout.fnmatch_lines(["  testcode at failing.rst, line 12 printed something else*"])
    xml = (pytester.path / "out.xml").read_text()
    case = xml[xml.index('name="FAIL-OUTPUT-1[1]"') :].partition("</testcase>")[0]
    assert re.findall(r'name="(?:sphinx_)?line" value="(\d+)"', case) == ["12"]
    assert '<property name="failure_kind" value="output" />' in case
    record = read_report(pytester.path / "r.json").by_id()["FAIL-OUTPUT-1"]
    assert [example.line for example in record.results] == [12]


def test_a_narrowed_run_shows_only_what_ran_and_says_it_is_partial(
    pytester: pytest.Pytester,
) -> None:
    result = run_fixture(pytester, "failing.rst", "-k", "FAIL-OUTPUT-1", "--report", "r.json")
    # one requirement ran: no rows or counts for the four that were deselected
    result.stdout.fnmatch_lines(
        [
            "partial: -k FAIL-OUTPUT-1: the table and the verdict count what ran",
            "core * 1 * 0 * 0 * 1 * 0 * 0 * 0 * 0",
            "all * 1 * 0 * 0 * 1 * 0 * 0 * 0 * 0",
            "verdict: reference does not conform (partial: -k FAIL-OUTPUT-1; not a verdict on "
            "the profiles): core 0/1 MUST",
            "MUST: 0/1 passed, 1 failed",
        ]
    )
    assert "no example collected" not in result.stdout.str()
    assert read_report(pytester.path / "r.json").selection == ("-k FAIL-OUTPUT-1",)


def test_a_partial_run_that_passes_is_no_verdict_of_conformance(pytester: pytest.Pytester) -> None:
    for selection in (["-k", "GROUP-FRESH-1"], ["--quick"], ["-m", "profile_core"]):
        result = run_fixture(pytester, "groups.rst", *selection)
        assert result.ret == pytest.ExitCode.OK
        words = " ".join(selection)
        result.stdout.fnmatch_lines(
            [
                f"partial: {words}: the table and the verdict count what ran",
                f"verdict: reference passes every MUST that ran (partial: {words}; *",
            ]
        )
        verdict = result.outlines[
            result.outlines.index(f"partial: {words}: the table and the verdict count what ran") :
        ]
        assert not [line for line in verdict if "conforms" in line]


def test_quiet_runs_print_no_worker_status(pytester: pytest.Pytester) -> None:
    (pytester.path / "levels.rst").write_text(SHOULD_DOC)
    result = run_spec(pytester, "-q", "-n", "1")
    text = result.stdout.str()
    assert "created:" not in text
    assert "bringing up nodes" not in text
    assert "1 worker [" not in text
    assert "MUST: 1/1 passed" in text


ENDING_DOC = """\
Ends
====

.. requirement:: END-SLEEP-1
   :profile: core
   :level: MUST

   It sleeps past the deadline.

.. testcode::

   import time
   time.sleep(30)

.. requirement:: END-CRASH-1
   :profile: core
   :level: MUST

   It crashes.

.. testcode::

   import os
   os._exit(3)
"""


def test_under_xdist_a_timeout_and_a_crash_never_take_a_worker_down(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "ends.rst").write_text(ENDING_DOC)
    result = run_spec(pytester, "-n", "1", "--example-timeout", "1")
    result.assert_outcomes(failed=2)
    text = result.stdout.str()
    # both end their executor, not the worker: it reports the run to the end
    assert "node down" not in text
    assert "replacing crashed worker" not in text
    assert "[gw1]" not in text
    assert "timed out after 1 s" in text
    assert "the example ended the executor process with os._exit(3)" in text


def test_a_run_without_an_explorer_says_which_runs_it_left_out(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "noexplorer.py").write_text(
        "import dataclasses\n"
        "from conformance.adapters import reference\n\n"
        "def adapter():\n"
        "    return dataclasses.replace(reference.adapter(), name='plain', explorer=None)\n"
    )
    result = run_spec(pytester, "--impl", "noexplorer:adapter", fixture="racy.rst")
    # racy.rst: two :explore: requirements of one example each, 8 schedules by default
    result.stdout.fnmatch_lines(
        [
            "the examples of 2 :explore: requirements ran once each, not also under "
            "controlled schedules: plain gives no explorer (adapter.explorer; with one, "
            "--schedules 8 would add 16 runs)"
        ]
    )
