"""A failure's header names the document as pytest names test files: relative to rootdir."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.sphinx_doctest.failures import shown
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
