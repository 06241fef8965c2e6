"""The inputs that decide what Sphinx reads of a project, and whether they are unchanged.

Each input is kept with the digest of its content, never a file's time:
``conf.py`` and ``docutils.conf``, every document and every file Sphinx noted
it depends on, the names of all files in the source folder (a new document),
the ``-D`` overrides, Python's version, and the code of Sphinx, docutils, each
extension and this engine (a distribution's version, or the bytes of code not
installed from one). Checking them imports nothing: snapshot.py uses a kept
read only while :meth:`Inputs.unchanged` holds.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.sphinx_doctest.project import SphinxProject

#: extensions whose reads Sphinx notes itself: Sphinx's own and first-party ones, and
#: those that read only what autodoc imports (autodoc notes the modules it documents)
_SPHINX_OWN = ("sphinx.", "sphinxcontrib.", "alabaster", "sphinx_autodoc_typehints")
#: the attribute by which an extension module vouches that it notes every file it reads
DECLARATION = "SPHINX_DOCTEST_DEPENDENCIES_NOTED"
#: the distributions whose code decides what Sphinx reads, whatever the extensions
_ALWAYS = ("sphinx", "docutils")
#: the engine, whose code decides the groups (model.py) and reads the snapshot
_ENGINE = ("conformance.sphinx_doctest.snapshot",)
#: what a missing input digests to
_ABSENT = "absent"


def file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return _ABSENT


def _listing(srcdir: Path) -> str:
    """The names of every file below the source folder: a new document changes it."""
    digest = hashlib.sha256()
    for folder, subfolders, files in sorted(os.walk(srcdir)):
        subfolders.sort()
        for name in sorted(files):
            digest.update(os.fsencode(os.path.join(folder, name)) + b"\0")
    return digest.hexdigest()


def _module_file(module_name: str) -> str | None:
    where = getattr(sys.modules.get(module_name), "__file__", None)
    return where if isinstance(where, str) else None


def _distributions_of(module_name: str, where: str) -> list[str]:
    """The distributions a module is installed from (none for code that is not installed
    from one, such as an editable checkout or a folder on ``sys.path``)."""
    if "site-packages" in Path(where).parts or "dist-packages" in Path(where).parts:
        return _distributions().get(module_name.split(".", maxsplit=1)[0], [])
    return []


def _code_digest(module_name: str, where: str, memo: dict[str, str]) -> str:
    """The bytes of every Python file of the top-level package of the module whose file
    is ``where`` (found from the file, so that nothing is imported to check it); ``memo``
    keeps what one check found, since many extensions share a package."""
    path = Path(where)
    depth = module_name.count(".") + (path.name == "__init__.py")
    root = path if depth == 0 else path.parents[depth - 1]
    found = memo.get(os.fspath(root))
    if found is None:
        files = [path] if depth == 0 else sorted(root.rglob("*.py"))
        digest = hashlib.sha256()
        for file in files:
            digest.update(os.fsencode(file) + b"\0" + file_digest(file).encode())
        found = memo[os.fspath(root)] = digest.hexdigest()
    return found


@functools.cache
def _distributions() -> Mapping[str, list[str]]:
    return metadata.packages_distributions()


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return _ABSENT


@dataclass(frozen=True)
class Inputs:
    """Every input that decided a read, each with its digest when recorded."""

    #: file -> digest of its bytes
    files: dict[str, str]
    #: what else decided it: the listing, overrides, Python, and each piece of code
    other: dict[str, str]

    def unchanged(self) -> bool:
        """Are all inputs still what they were (read without importing Sphinx)?"""
        if any(file_digest(Path(path)) != digest for path, digest in self.files.items()):
            return False
        return current_other(self.other) == self.other


def current_other(recorded: dict[str, str]) -> dict[str, str]:
    """The inputs other than files as they are now, for the keys ``recorded`` has."""
    now: dict[str, str] = {}
    memo: dict[str, str] = {}
    for key, value in recorded.items():
        kind, _, name = key.partition(":")
        if kind == "listing":
            now[key] = _listing(Path(name))
        elif kind == "code":
            module, _, where = name.partition("@")
            now[key] = _code_digest(module, where, memo)
        elif kind == "distribution":
            now[key] = _version(name)
        elif kind == "python":
            now[key] = sys.version
        else:  # overrides and the format are part of the snapshot itself
            now[key] = value
    return now


def inputs_of(project: SphinxProject, version: int) -> Inputs | str:
    """The read's inputs, or why they cannot all be known."""
    app = project.app
    env = app.env
    files: list[Path] = [project.confdir / "conf.py", project.confdir / "docutils.conf"]
    for docname in sorted(env.found_docs):
        files.append(Path(env.doc2path(docname)))
        files += sorted(Path(app.srcdir) / dep for dep in env.dependencies.get(docname, ()))
    other = {
        f"listing:{project.srcdir}": _listing(project.srcdir),
        "python:": sys.version,
        "overrides:": overrides_key(project.overrides),
        "format:": str(version),
    }
    memo: dict[str, str] = {}
    for name in [*_ALWAYS, *_ENGINE, *sorted(app.extensions)]:
        if name not in _ALWAYS and not _noted(name):
            return (
                f"extension {name} does not declare that it notes every file it reads "
                f"({DECLARATION} = True in its module)"
            )
        where = _module_file(name)
        if where is None:
            return f"the code of {name} cannot be found"
        distributions = _distributions_of(name, where)
        for distribution in distributions:  # installed: its version says what code it is
            other[f"distribution:{distribution}"] = _version(distribution)
        if not distributions:
            other[f"code:{name}@{where}"] = _code_digest(name, where, memo)
    return Inputs({os.fspath(path): file_digest(path) for path in files}, other)


def overrides_key(overrides: dict[str, str]) -> str:
    return repr(sorted(overrides.items()))


def _noted(extension: str) -> bool:
    if extension in _ENGINE or extension.startswith(_SPHINX_OWN):
        return True
    return bool(getattr(sys.modules.get(extension), DECLARATION, False))


__all__ = ["DECLARATION", "Inputs", "current_other", "file_digest", "inputs_of", "overrides_key"]
