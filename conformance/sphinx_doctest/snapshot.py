"""What Sphinx decided about a project, kept so that an unchanged project starts no Sphinx.

Every run used to start a Sphinx application - loading each extension, unpickling
the environment - even when not one byte of the project had changed, and that
start costs more than everything else a one-rule run does. So after Sphinx reads
a project, what the suite uses of that read is kept in one pickle (a
*snapshot*): each document's doctree and its groups (as ``model.py`` built them,
sharing the doctree's nodes), its path, and the few configuration values read
after the read. Beside it are the inputs that decided it, each with the digest
of its content (inputs.py); a later run checks them - without starting Sphinx -
and uses the snapshot only if every one is unchanged.

A snapshot is written only when its inputs can be known: a read without
warnings (a warned document is read again every run, so its warnings are said
again), and extensions that are Sphinx's own or declare
``SPHINX_DOCTEST_DEPENDENCIES_NOTED = True`` (every file they read is noted as
a dependency). Otherwise the run says why, and Sphinx reads the project every
time, as before.
"""

from __future__ import annotations

import io
import os
import pickle
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.ext.doctest import TestGroup

from conformance.sphinx_doctest.compiling import DetachedCompiler
from conformance.sphinx_doctest.inputs import (
    DECLARATION,
    Inputs,
    current_other,
    file_digest,
    inputs_of,
    overrides_key,
)

if TYPE_CHECKING:
    from conformance.sphinx_doctest.project import SphinxProject

#: the snapshot's file in the project's cache folder
SNAPSHOT = "read-snapshot.pickle"
#: bumped when what a snapshot holds changes
_FORMAT = 3
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
    inputs = inputs_of(project, _FORMAT)
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
        if inputs.other.get("overrides:") != overrides_key(overrides):
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
    changed = [p for p, d in inputs.files.items() if file_digest(Path(p)) != d]
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
