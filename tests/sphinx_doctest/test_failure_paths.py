"""A failure's header names the file holding the block as pytest names test files:
relative to rootdir (the document, or the file it includes the block from)."""

from __future__ import annotations

import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from conformance.sphinx_doctest.failures import shown
from tests.sphinx_doctest.test_sphinx_doctest_differential import PROJECTS
from tests.sphinx_doctest.test_sybil_routes import INDEX, make_project, run_pytest

ROUTES = {"plugin": ("-p", "conformance.sphinx_doctest", "docs"), "conftest": ("docs",)}


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_failure_headers_name_the_document_relative_to_rootdir(tmp_path: Path, route: str) -> None:
    project = make_project(tmp_path, conftest=route == "conftest")
    broken = INDEX.replace("   40\n", "   41\n").replace("offset = 2", "offset = 2\n   1 / 0")
    (project / "docs" / "index.rst").write_text(broken, encoding="utf-8")
    done, _ = run_pytest(project, *ROUTES[route], "--rootdir", str(project))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "doctest at docs/index.rst, line 19 printed something else than expected:" in (
        done.stdout
    )
    assert "setup code at docs/index.rst, line 14 raised ZeroDivisionError:" in done.stdout
    assert '  File "docs/index.rst", line 15, in <module>\n    1 / 0\n' in done.stdout
    failures = done.stdout[done.stdout.index("= ERRORS =") :]
    assert str(tmp_path) not in failures


def test_a_file_outside_rootdir_keeps_its_whole_path(tmp_path: Path) -> None:
    inside, outside = tmp_path / "root" / "docs" / "a.rst", tmp_path / "elsewhere" / "b.rst"
    assert shown(inside, tmp_path / "root") == "docs/a.rst"
    assert shown(outside, tmp_path / "root") == str(outside)
    assert shown(outside, None) == str(outside)


def test_a_block_of_an_included_file_is_located_in_that_file(tmp_path: Path) -> None:
    """The core fixture's include.rst pulls tests from includes/shared.rst: their items
    (and a failure's header) name that file and its lines, not the including document's."""
    project = tmp_path / "core"
    shutil.copytree(PROJECTS / "core", project, ignore=shutil.ignore_patterns("__pycache__"))
    junit = tmp_path / "junit.xml"
    done, _ = run_pytest(
        project, "-p", "conformance.sphinx_doctest", "include.rst", "--rootdir", str(project),
        "--junitxml", str(junit), "-o", "junit_family=xunit1",
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "testcode at includes/shared.rst, line 14 raised ValueError:" in done.stdout
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    # xunit1 writes pytest's item location: file and 0-based line of the directive
    assert {(c.get("name"), c.get("file"), c.get("line")) for c in cases} == {
        ("testcode:line3", "includes/shared.rst", "2"),
        ("testcode:line12", "includes/shared.rst", "11"),
        ("testcode:line16", "include.rst", "15"),
    }
