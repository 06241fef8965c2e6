"""What Sphinx decided about a project, kept so that an unchanged project starts no Sphinx.

Every run used to start a Sphinx application - loading each extension, unpickling
the environment - even when not one byte of the project had changed, and that
start costs more than everything else a one-rule run does. So after Sphinx reads
a project, what the suite uses of that read is kept in one pickle (a
*snapshot*): each document's doctree and its groups (as ``model.py`` built them,
sharing the doctree's nodes), its path, and the few configuration values read
after the read. Beside it are the inputs that decided it, each with the digest
of its bytes: ``conf.py`` and ``docutils.conf``, every document and every file
Sphinx noted it depends on (includes, autodoc's modules, what an extension
noted), the names of all files in the source folder (a new document), the
``-D`` overrides, Python's version, and the code of Sphinx, docutils, each
extension and this engine (a distribution's version, or the bytes of code that
is not installed from one). A later run checks those digests - without importing
Sphinx - and uses the snapshot only if every one is unchanged. Never a file's
time: content only.

A snapshot is written only when its inputs can be known: a read without
warnings (a warned document is read again every run, so its warnings are said
again), and extensions that are Sphinx's own or declare
``SPHINX_DOCTEST_DEPENDENCIES_NOTED = True`` (every file they read is noted as
a dependency). Otherwise the run says why, and Sphinx reads the project every
time, as before.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import pickle
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.ext.doctest import TestGroup

from conformance.sphinx_doctest.compiling import DetachedCompiler

if TYPE_CHECKING:
    from conformance.sphinx_doctest.project import SphinxProject

#: the snapshot's file in the project's cache folder
SNAPSHOT = "read-snapshot.pickle"
#: bumped when what a snapshot holds changes
_FORMAT = 3
#: extensions whose reads Sphinx notes itself: Sphinx's own and first-party ones, and
#: those that read only what autodoc imports (autodoc notes the modules it documents)
_SPHINX_OWN = ("sphinx.", "sphinxcontrib.", "alabaster", "sphinx_autodoc_typehints")
#: the attribute by which an extension module vouches that it notes every file it reads
DECLARATION = "SPHINX_DOCTEST_DEPENDENCIES_NOTED"
#: the distributions whose code decides what Sphinx reads, whatever the extensions
_ALWAYS = ("sphinx", "docutils")
#: what a missing input digests to
_ABSENT = "absent"
#: the head of the reason a read with warnings is not kept (Sphinx said why itself)
WARNED = "Sphinx warned"


class NotKept(UserWarning):
    """Sphinx's read of a project could not be kept: Sphinx reads it every run."""


@dataclass(frozen=True)
class StoredConfig:
    """The configuration values the suite reads after Sphinx's read."""

    source_encoding: str
    doctest_default_flags: int
    doctest_fail_fast: bool
    doctest_path: tuple[str, ...]


class StoredProject:
    """A project as Sphinx read it, from a snapshot: what the suite uses of a
    ``SphinxProject``, with no Sphinx application behind it."""

    def __init__(  # noqa: PLR0913 - the parts of one read
        self,
        srcdir: Path,
        confdir: Path,
        *,
        config: StoredConfig,
        paths: dict[str, Path],
        doctrees: dict[str, nodes.document],
        groups: dict[str, dict[str, TestGroup]],
    ) -> None:
        self.srcdir = srcdir
        self.confdir = confdir
        self.config = config
        self._paths = paths
        self._docnames = {os.fspath(path): docname for docname, path in paths.items()}
        self._doctrees = doctrees
        self._groups = groups
        #: a snapshot is written only after a read without warnings
        self.read_warnings = ""
        #: ``DocTestBuilder.compile`` for tests run in this process (compiling.py)
        self.builder = DetachedCompiler()

    def docnames(self) -> list[str]:
        return sorted(self._paths)

    def doctree(self, docname: str) -> nodes.document:
        return self._doctrees[docname]

    def path_of(self, docname: str) -> Path:
        return self._paths[docname]

    def docname_of(self, path: Path) -> str | None:
        return self._docnames.get(os.fspath(path)) or self._docnames.get(os.fspath(path.resolve()))

    def groups(self, docname: str) -> tuple[dict[str, TestGroup], str]:
        return self._groups[docname], ""

    def drain_warnings(self) -> str:
        return ""


# -- the inputs -----------------------------------------------------------------------


def _file_digest(path: Path) -> str:
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
            digest.update(os.fsencode(file) + b"\0" + _file_digest(file).encode())
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
        if any(_file_digest(Path(path)) != digest for path, digest in self.files.items()):
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


def _inputs(project: SphinxProject) -> Inputs | str:
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
        "overrides:": _overrides(project.overrides),
        "format:": str(_FORMAT),
    }
    memo: dict[str, str] = {}
    for name in [*_ALWAYS, __name__, *sorted(app.extensions)]:
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
    return Inputs({os.fspath(path): _file_digest(path) for path in files}, other)


def _overrides(overrides: dict[str, str]) -> str:
    return repr(sorted(overrides.items()))


def _noted(extension: str) -> bool:
    if extension == __name__ or extension.startswith(_SPHINX_OWN):
        return True
    return bool(getattr(sys.modules.get(extension), DECLARATION, False))


# -- writing and reading --------------------------------------------------------------


class _Pickler(pickle.Pickler):
    """Doctrees without what Sphinx hangs on them while reading (the environment, the
    application), as Sphinx pickles its own doctrees."""

    def persistent_id(self, obj: Any) -> str | None:
        return "sphinx" if _is_sphinx_state(obj) else None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> None:
        if pid != "sphinx":
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")


def _is_sphinx_state(obj: object) -> bool:
    module = type(obj).__module__
    return module.startswith(
        ("sphinx.application", "sphinx.environment", "sphinx.builders", "sphinx.config",
         "sphinx.util.docutils")
    )  # fmt: skip


def write(
    project: SphinxProject, groups: dict[str, dict[str, TestGroup]], warned: bool
) -> str | None:
    """Keep the read in ``project``'s cache folder; or why it cannot be kept (None: kept).
    ``warned``: Sphinx warned while the groups were built."""
    folder = project.folder
    if folder is None:
        return "the project has no cache folder"
    path = folder / SNAPSHOT
    path.unlink(missing_ok=True)
    if project.read_warnings or warned:
        return f"{WARNED} while reading the project"
    inputs = _inputs(project)
    if isinstance(inputs, str):
        return inputs
    config = project.config
    stored = StoredConfig(
        str(config.source_encoding),
        int(config.doctest_default_flags),
        bool(config.doctest_fail_fast),
        tuple(str(path) for path in config.doctest_path),
    )
    docnames = project.docnames()
    data = {
        "inputs": inputs,
        "config": stored,
        "paths": {d: project.path_of(d) for d in docnames},
        "doctrees": {d: project.doctree(d) for d in docnames},
        "groups": groups,
    }
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(data)
    partial = path.with_suffix(".partial")
    partial.write_bytes(buffer.getvalue())
    partial.replace(path)
    return None


def read(
    srcdir: Path, confdir: Path, folder: Path, overrides: dict[str, str]
) -> StoredProject | None:
    """The snapshot in ``folder`` if every input that decided it is unchanged, else None."""
    path = folder / SNAPSHOT
    try:
        with path.open("rb") as handle:
            data = _Unpickler(handle).load()
        inputs = data["inputs"]
        if not isinstance(inputs, Inputs) or not inputs.unchanged():
            return None
        if inputs.other.get("overrides:") != _overrides(overrides):
            return None
        return StoredProject(
            srcdir,
            confdir,
            config=data["config"],
            paths=data["paths"],
            doctrees=data["doctrees"],
            groups=data["groups"],
        )
    except Exception:  # noqa: BLE001 - a snapshot that cannot be read is no snapshot
        return None


def changed_inputs(folder: Path) -> Iterable[str]:
    """Which recorded inputs differ now (for tests and for saying why Sphinx started)."""
    try:
        with (folder / SNAPSHOT).open("rb") as handle:
            inputs: Inputs = _Unpickler(handle).load()["inputs"]
    except Exception:  # noqa: BLE001
        return ["the snapshot"]
    changed = [p for p, d in inputs.files.items() if _file_digest(Path(p)) != d]
    now = current_other(inputs.other)
    return changed + [key for key, value in inputs.other.items() if now[key] != value]


__all__ = [
    "DECLARATION",
    "SNAPSHOT",
    "WARNED",
    "NotKept",
    "StoredConfig",
    "StoredProject",
    "changed_inputs",
    "read",
    "write",
]
