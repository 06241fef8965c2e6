"""Reading a project leaves docutils' globals as it found them, as sphinx-build does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from docutils import nodes

from conformance.sphinx_doctest.project import ReadProject, SphinxSource, read_project

CONF = 'extensions = ["sphinx.ext.doctest"]\n'
PAGE = "Page\n====\n\n.. testcode::\n\n   print(1)\n\n.. testoutput::\n\n   1\n"


def project(root: Path) -> Path:
    root.mkdir()
    (root / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "index.rst").write_text(PAGE, encoding="utf-8")
    return root


def test_a_second_project_read_in_one_process_reads_without_a_warning(tmp_path: Path) -> None:
    first = project(tmp_path / "first")
    second = project(tmp_path / "second")
    assert read_project(first, SphinxSource(first), tmp_path / "cache").read_warnings == ""
    # before, the first app's nodes stayed registered: "node class 'toctree' is already
    # registered, its visitors will be overridden", and so on for every node
    assert read_project(second, SphinxSource(second), tmp_path / "cache").read_warnings == ""


def blocks_in(read: ReadProject) -> list[str]:
    """The kinds of the doctest blocks the engine found in the project's index."""
    found = read.doctree("index").findall(nodes.Element)
    return [str(node["testnodetype"]) for node in found if "testnodetype" in node]


def test_a_docutils_conf_beside_conf_py_applies_as_under_sphinx_build(tmp_path: Path) -> None:
    """Here it turns ``include`` off, so the included file's test does not exist."""
    roots = []
    for name in ("plain", "conf"):
        root = project(tmp_path / name)
        (root / "part.txt").write_text(PAGE.split("\n\n", 1)[1], encoding="utf-8")
        (root / "index.rst").write_text("Page\n====\n\n.. include:: part.txt\n", "utf-8")
        roots.append(root)
    plain, conf = roots
    (conf / "docutils.conf").write_text("[general]\nfile_insertion_enabled: false\n", "utf-8")
    built = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "doctest", "-E", str(conf), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=True,
    )
    disabled = '"include" directive disabled'
    assert disabled in built.stderr
    assert "0 tests" in built.stdout  # sphinx-build: no test at all
    assert blocks_in(read_project(plain, SphinxSource(plain), tmp_path / "cache")) == [
        "testcode",
        "testoutput",
    ]
    read = read_project(conf, SphinxSource(conf), tmp_path / "cache")
    assert disabled in read.read_warnings
    assert blocks_in(read) == []  # the engine: none either
