"""The harness on small spec documents: groups, output checks, lines, profiles, adapters."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.adapter import Adapter, AdapterError, load_adapter
from tests.conftest import FIXTURES, run_spec

pytest_plugins = ["pytester"]


def run_fixture(pytester: pytest.Pytester, name: str, *args: str) -> pytest.RunResult:
    return run_spec(
        pytester,
        name,
        "-rA",
        *args,
        fixture=name,
    )


def test_groups_follow_sphinx_semantics(pytester: pytest.Pytester) -> None:
    result = run_fixture(pytester, "groups.rst", "-v")
    result.assert_outcomes(passed=7)
    # Sphinx's order: all of group default (its '*' block last), then group other
    names = [
        line.split("::")[1].split()[0]
        for line in result.outlines
        if " PASSED" in line and "::" in line and line.startswith("groups.rst")
    ]
    assert names == [
        "GROUP-SETUP-1:line9",
        "GROUP-STAR-1:line52",
        "GROUP-HIDDEN-1:line71",
        "GROUP-STAR-1:line44[default]",
        "GROUP-FRESH-1:line31[other]",
        "GROUP-STAR-1:line62[other]",
        "GROUP-STAR-1:line44[other]",
    ]


def test_selecting_one_example_still_runs_its_group_setup(pytester: pytest.Pytester) -> None:
    result = run_fixture(pytester, "groups.rst", "-k", "GROUP-FRESH-1")
    result.assert_outcomes(passed=1, deselected=6)


def test_failures_name_requirement_document_and_true_line(pytester: pytest.Pytester) -> None:
    result = run_fixture(pytester, "failing.rst")
    result.assert_outcomes(passed=2, failed=3)
    text = result.stdout.str()
    assert "FAIL-OUTPUT-1 (profile core) failed at" in text
    assert "failing.rst, line 9, group 'default'" in text
    assert "Expected:\n    3\nGot:\n    2" in text
    # the traceback points at the raising line of the .rst file itself
    assert 'failing.rst", line 25, in <module>' in text
    assert "KeyError: 'missing'" in text
    assert "FAIL-SILENT-1 (profile core) failed" in text
    assert "failed requirements: FAIL-OUTPUT-1, FAIL-RAISES-1, FAIL-SILENT-1" in text


def test_summary_table_counts_requirements_per_profile(pytester: pytest.Pytester) -> None:
    result = run_fixture(pytester, "failing.rst")
    result.stdout.fnmatch_lines(["core*5*2*3*0*0", "all*5*2*3*0*0"])


def test_a_block_that_does_not_parse_is_a_collection_error_naming_it(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "bad.rst").write_text(
        "Bad\n===\n\n.. testoutput::\n   :options: ELLIPSIS\n\n   x\n"
    )
    result = run_spec(
        pytester,
        "bad.rst",
    )
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*bad.rst, line 4: option 'ELLIPSIS' must start with '+' or '-'*"])


def test_requirement_without_profile_is_rejected(pytester: pytest.Pytester) -> None:
    (pytester.path / "noprofile.rst").write_text(
        "T\n=\n\n.. requirement:: X-1\n\n   Text.\n\n.. testcode::\n\n   pass\n"
    )
    result = run_spec(
        pytester,
    )
    result.stdout.fnmatch_lines(["*noprofile.rst, line 4: requirement X-1 needs :profile:*"])


ADAPTERS = """
from types import ModuleType
from conformance.adapter import Adapter
import reference_impl

def _fw(names):
    fw = ModuleType("fw")
    for name in names:
        setattr(fw, name, getattr(reference_impl, name))
    return fw

ALL = ("fork", "wait", "Future", "Module", "script", "ignore", "collect_all", "wait_all")

def core_only():
    return Adapter("core-only", "1", _fw(ALL), frozenset({"core"}),
                   {"FAIL-OUTPUT-1": "prints 2", "FAIL-EXPECTED-EXC-1": "wrongly listed"})

def broken():
    return Adapter("broken", "1", _fw(("fork",)), frozenset({"core", "async"}))

not_an_adapter = 42
"""


def test_unclaimed_profiles_skip_and_expected_failures_are_strict(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(my_adapters=ADAPTERS)
    shutil.copy(FIXTURES / "failing.rst", pytester.path / "failing.rst")
    (pytester.path / "async.rst").write_text(
        "A\n=\n\n.. requirement:: ASYNC-X-1\n   :profile: async\n\n   Text.\n\n"
        ".. testcode::\n\n   pass\n"
    )
    result = run_spec(
        pytester,
        "--impl",
        "my_adapters:core_only",
        "-rA",
    )
    result.assert_outcomes(passed=1, failed=2, skipped=1, xfailed=1, xpassed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = result.stdout.str()
    assert "profile 'async' is not claimed by implementation 'core-only'" in text
    assert "FAIL-OUTPUT-1: prints 2" in text
    assert (
        "expected to fail but passed (remove them from the expected failures): "
        "FAIL-EXPECTED-EXC-1" in text
    )


def test_a_broken_adapter_fails_fast_listing_what_is_missing(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(my_adapters=ADAPTERS)
    result = pytester.runpytest_subprocess(
        "-p", "conformance.plugin", "--impl", "my_adapters:broken"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*adapter 'broken' is broken: fw lacks Future, Module, collect_all, ignore, script, "
            "wait, wait_all*"
        ]
    )


def test_adapter_lookup_errors_are_clear(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(AdapterError, match=r"no implementation named 'nope'.*reference"):
        load_adapter("nope")
    with pytest.raises(AdapterError, match="failed to import: ModuleNotFoundError"):
        load_adapter("no_such_module_xyz:adapter")
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "adapters_mod.py").write_text(ADAPTERS)
    with pytest.raises(AdapterError, match="gave int, not a conformance Adapter"):
        load_adapter("adapters_mod:not_an_adapter")
    with pytest.raises(AdapterError, match="unknown profiles"):
        Adapter("x", "1", object(), frozenset({"fast"})).validate()


def test_reference_is_registered_and_claims_its_profiles() -> None:
    adapter = load_adapter("reference")
    assert adapter.profiles == {"core", "async", "dynamic", "trace"}
    assert adapter.missing_names() == []


CLEANUP_DOC = """Cleanup
=======

.. requirement:: CLEAN-1
   :profile: core

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
    result = run_spec(
        pytester,
    )
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        ["*cleanup of group 'default' failed*", "*RuntimeError: cleanup ran and failed on purpose"]
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
    assert re.search(r"^all\s+(\d+)\s+\1(\s+0){4}$", result.stdout, re.MULTILINE), result.stdout
