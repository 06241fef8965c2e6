"""Every doc example is a sybil ``SybilItem``, whichever way it is collected.

Three routes: ``-p conformance.sphinx_doctest`` with no conftest; a third
party's conftest calling ``sphinx_sybil``, composed with sybil's own Markdown
parser in the same run; and this repository's spec (``pytest docs``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sybil import Sybil

from conformance.sphinx_doctest import sphinx_sybil
from conformance.sphinx_doctest.entry import SphinxSybilCollection
from tests.paths import REPO, checkout_on_path

CLASSES = "tests.sphinx_doctest.item_classes"

CONF = 'extensions = ["sphinx.ext.doctest"]\ndoctest_global_setup = "base = 40"\n'
INDEX = """\
Title
=====

.. testcode:: g

   print(base + offset)

.. testoutput:: g

   42

.. testsetup:: g

   offset = 2

.. doctest::

   >>> base
   40
"""
README = """\
# Readme

```python
answer = 6 * 7
assert answer == 42
```
"""
CONFTEST = """\
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

from conformance.sphinx_doctest import sphinx_sybil

pytest_collect_file = (
    sphinx_sybil("docs") + Sybil(parsers=[PythonCodeBlockParser()], patterns=["*.md"])
).pytest()
"""


def make_project(root: Path, *, conftest: bool) -> Path:
    (root / "docs").mkdir()
    (root / "docs" / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "docs" / "index.rst").write_text(INDEX, encoding="utf-8")
    (root / "README.md").write_text(README, encoding="utf-8")
    if conftest:
        (root / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    return root


PYTEST = [sys.executable, "-m", "pytest"]
#: forkwait-conformance, in one process (its worker would print the classes unseen)
CLI = [sys.executable, "-c", "from conformance.cli import main; raise SystemExit(main())"]


def run_pytest(
    cwd: Path, *args: str, command: list[str] = PYTEST
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Run pytest (or the CLI); the items it collected, as ``{nodeid: "Class is-a-SybilItem"}``."""
    env = checkout_on_path({k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")})
    done = subprocess.run(
        [*command, *args, "-p", CLASSES, "-p", "no:cacheprovider", "-s"],
        cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    items = {}
    for line in done.stdout.splitlines():
        if line.startswith("ITEM "):
            _, nodeid_and_rest = line.split(" ", 1)
            nodeid, kind, is_sybil = nodeid_and_rest.rsplit(" ", 2)
            items[nodeid] = f"{kind} {is_sybil}"
    return done, items


def test_plugin_route_items_are_sybil_items(tmp_path: Path) -> None:
    project = make_project(tmp_path, conftest=False)
    done, items = run_pytest(project, "-p", "conformance.sphinx_doctest", "docs")
    assert done.returncode == 0, done.stdout + done.stderr
    assert items == {
        "docs/index.rst::testcode:line4[g]": "SybilItem True",
        "docs/index.rst::doctest:line16": "SybilItem True",
    }
    assert "2 passed" in done.stdout


def test_conftest_route_composes_with_sybils_markdown_parser(tmp_path: Path) -> None:
    project = make_project(tmp_path, conftest=True)
    done, items = run_pytest(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert items == {
        "README.md::line:3,column:1": "SybilItem True",
        "docs/index.rst::testcode:line4[g]": "SybilItem True",
        "docs/index.rst::doctest:line16": "SybilItem True",
    }
    assert "3 passed" in done.stdout


def test_conftest_route_reports_setup_failures_as_errors(tmp_path: Path) -> None:
    project = make_project(tmp_path, conftest=True)
    index = project / "docs" / "index.rst"
    index.write_text(INDEX.replace("offset = 2", "offset = 1 / 0"), encoding="utf-8")
    done, _ = run_pytest(project, "docs", "-rE")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed, 1 error" in done.stdout
    assert "the setup of group 'g' failed, so none of its tests run" in done.stdout
    assert "raised ZeroDivisionError" in done.stdout


def test_conftest_route_rebuilds_a_namespace_for_one_selected_test(tmp_path: Path) -> None:
    project = make_project(tmp_path, conftest=True)
    later = (
        "\n.. testcode:: g\n\n   total = base + offset\n"  # line 21
        "\n.. testcode:: g\n\n   print(total + 1)\n\n.. testoutput:: g\n\n   43\n"  # line 25
    )
    (project / "docs" / "index.rst").write_text(INDEX + later, encoding="utf-8")
    done, items = run_pytest(project, "docs", "-k", "line25")
    assert list(items) == ["docs/index.rst::testcode:line25[g]"]
    # the group's setup ran, then its earlier tests (which define ``total``) silently
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 3 deselected" in done.stdout


def test_sphinx_sybil_says_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no folder"):
        sphinx_sybil(tmp_path / "missing")
    with pytest.raises(ValueError, match=r"no conf\.py in"):
        sphinx_sybil(tmp_path)
    (tmp_path / "conf.py").write_text(CONF, encoding="utf-8")
    with pytest.raises(TypeError, match="decides parsers itself"):
        sphinx_sybil(tmp_path, parsers=[])


def test_either_order_of_addition_gives_the_attaching_collection(tmp_path: Path) -> None:
    """``a + b`` and ``b + a`` both give the collection whose .pytest() attaches ours
    (the composition test above runs one end to end)."""
    (tmp_path / "conf.py").write_text(CONF, encoding="utf-8")
    ours, theirs = sphinx_sybil(tmp_path), Sybil(parsers=[], patterns=["*.md"])
    for collection in (ours + theirs, theirs + ours):
        assert isinstance(collection, SphinxSybilCollection)
        assert list(collection) in ([ours, theirs], [theirs, ours])


def test_sphinx_sybil_resolves_paths_from_the_calling_file() -> None:
    sybil = sphinx_sybil("projects/core")
    assert sybil.path == Path(__file__).resolve().parent / "projects" / "core"


@pytest.mark.parametrize("route", ["pytest docs", "forkwait-conformance"])
def test_spec_examples_are_sybil_items(route: str) -> None:
    if route == "pytest docs":
        done, items = run_pytest(REPO, "docs", "-q", "-n", "0", "-p", "no:hypothesispytest")
    else:
        # in-process (-n 0) to see the items' classes
        args = ("--impl", "reference", "--", "-n", "0", "-q")
        done, items = run_pytest(REPO, *args, command=CLI)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(items) >= 130  # the spec's examples, all run (and passed)
    assert set(items.values()) <= {"SpecItem True", "SybilItem True"}, set(items.values())
