"""A snapshot of Sphinx's read is used only while every input that decided it is unchanged.

One small project (a document, an included part, conf.py, a local extension) is
read by Sphinx once, which keeps its snapshot; then each kind of input is changed
in turn - by content only, keeping the file's size and giving it an older time,
as ``cp -p`` does - and the snapshot must miss, and hit again once it is undone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.sphinx_doctest import inputs, snapshot
from conformance.sphinx_doctest.project import SphinxProject, SphinxSource, read_project

#: a day before any file of the run
OLD = 1_000_000_000
CONF = 'import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\nextensions = ["{ext}"]\n'
EXTENSION = (
    '"""A local extension."""\n\nSPHINX_DOCTEST_DEPENDENCIES_NOTED = {noted}\n\n\n'
    "def setup(app):\n    app.setup_extension('sphinx.ext.doctest')\n"
    "    return {{'parallel_read_safe': True}}\n"
)
INDEX = "Index\n=====\n\n.. testcode::\n\n   print(1)\n\n.. include:: part.txt\n"
PART = ".. testcode::\n\n   print(2)\n"


@pytest.fixture
def project(tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Path, Path]:
    """A project read once by Sphinx: (source folder, cache folder)."""
    ext = "local_ext_" + re.sub(r"\W", "_", request.node.name)
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF.format(ext=ext))
    (src / f"{ext}.py").write_text(EXTENSION.format(noted=True))
    (src / "index.rst").write_text(INDEX)
    (src / "part.txt").write_text(PART)
    cache = tmp_path / "cache"
    read = read_project(src, SphinxSource(src), cache)
    assert isinstance(read, SphinxProject)  # the first read is Sphinx's
    assert read.folder is not None
    return src, read.folder


def _hit(src: Path, folder: Path, overrides: dict[str, str] | None = None) -> bool:
    return snapshot.read(src.resolve(), src.resolve(), folder, overrides or {}) is not None


def _same_size_older(path: Path, old: str, new: str) -> Callable[[], None]:
    """Replace ``old`` by ``new`` (same length) keeping an older time; return the undo."""
    text = path.read_text()
    assert len(old) == len(new)
    assert old in text
    path.write_text(text.replace(old, new))
    os.utime(path, (OLD, OLD))

    def undo() -> None:
        path.write_text(text)

    return undo


def test_an_unchanged_project_is_read_from_its_snapshot(project: tuple[Path, Path]) -> None:
    src, folder = project
    stored = snapshot.read(src.resolve(), src.resolve(), folder, {})
    assert stored is not None
    assert stored.docnames() == ["index"]
    groups, warned = stored.groups("index")
    assert warned == ""
    codes = [test[0].code for test in groups["default"].tests]
    assert codes == ["print(1)", "print(2)"]  # the included part's block too


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("index.rst", "print(1)", "print(3)"),  # the document
        ("part.txt", "print(2)", "print(4)"),  # a file it includes
        ("conf.py", "sys, os", "os, sys"),  # the configuration
    ],
)
def test_a_changed_input_file_misses(
    project: tuple[Path, Path], name: str, old: str, new: str
) -> None:
    src, folder = project
    undo = _same_size_older(src / name, old, new)
    assert not _hit(src, folder)
    undo()
    assert _hit(src, folder)


def test_a_changed_extension_misses(project: tuple[Path, Path]) -> None:
    src, folder = project
    (extension,) = src.glob("local_ext_*.py")
    undo = _same_size_older(extension, "A local", "A LOCAL")
    assert not _hit(src, folder)
    undo()
    assert _hit(src, folder)


def test_another_version_of_sphinx_misses(
    project: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, folder = project
    real = inputs._version
    monkeypatch.setattr(inputs, "_version", lambda n: "0.0" if n.lower() == "sphinx" else real(n))
    assert not _hit(src, folder)
    monkeypatch.undo()
    assert _hit(src, folder)


def test_a_new_file_in_the_source_folder_misses(project: tuple[Path, Path]) -> None:
    src, folder = project
    new = src / "new.rst"
    new.write_text("New\n===\n")
    assert not _hit(src, folder)
    new.unlink()
    assert _hit(src, folder)


def test_other_overrides_miss(project: tuple[Path, Path]) -> None:
    src, folder = project
    assert not _hit(src, folder, {"doctest_test_doctest_blocks": ""})


def test_an_extension_that_does_not_declare_its_reads_keeps_no_snapshot(
    tmp_path: Path,
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF.format(ext="undeclared_local_ext"))
    (src / "undeclared_local_ext.py").write_text(EXTENSION.format(noted=False))
    (src / "index.rst").write_text(INDEX)
    (src / "part.txt").write_text(PART)
    with pytest.warns(snapshot.NotKept, match="undeclared_local_ext does not declare"):
        read = read_project(src, SphinxSource(src), tmp_path / "cache")
    assert isinstance(read, SphinxProject)
    assert read.folder is not None
    assert not (read.folder / snapshot.SNAPSHOT).exists()
