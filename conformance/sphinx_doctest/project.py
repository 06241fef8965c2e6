"""Read a Sphinx project as ``sphinx-build -b doctest`` reads it, and keep its doctrees.

Documents are parsed by Sphinx itself, with the project's ``conf.py`` and its
extensions, under Sphinx's real doctest builder. So whatever decides which
blocks exist - comments, literal blocks, ``.. only::``, ``.. include::``,
autodoc-inserted docstrings, ``doctest_path`` on ``sys.path`` - decides it
exactly as for ``sphinx-build``. No hand-written reST scanner could promise that.

The environment is pickled in a cache folder (Sphinx's own doctree folder), so
a later run re-reads only what changed, as ``sphinx-build`` without ``-E``
does. A file lock keeps concurrent runs (xdist workers, parallel suites) from
writing one cache at the same time.
"""

from __future__ import annotations

import doctest
import hashlib
import io
import json
import os
import pickle
import shutil
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from docutils import nodes
from sphinx.application import ENV_PICKLE_FILENAME, Sphinx
from sphinx.config import Config
from sphinx.ext.doctest import DocTestBuilder
from sphinx.util.console import nocolor
from sphinx.util.docutils import docutils_namespace, patch_docutils

from conformance.sphinx_doctest.freshness import changed_documents, record_digests

try:  # POSIX; elsewhere concurrent runs simply do not share a cache (see cache_folder)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

_BUILDER = "doctest"
_WARNED_DOCS = "warned-docs.json"


class ProjectError(Exception):
    """A Sphinx project that cannot be read (bad conf.py, missing extension...)."""


@dataclass
class SphinxProject:
    """A Sphinx project after its read phase: configuration, documents and doctrees."""

    srcdir: Path
    confdir: Path
    app: Sphinx
    #: where Sphinx writes its warnings (what sphinx-build would print)
    warning_stream: io.StringIO
    #: what Sphinx warned about while reading (and setting up) the project
    read_warnings: str
    #: the cache folder it was read with, and the -D overrides (to read it again)
    folder: Path | None = None
    overrides: dict[str, str] = field(default_factory=dict)
    _doctrees: dict[str, nodes.document] = field(default_factory=dict)

    @property
    def config(self) -> Config:
        return self.app.config

    @property
    def builder(self) -> DocTestBuilder:
        builder = self.app.builder
        assert isinstance(builder, DocTestBuilder)
        return builder

    def docnames(self) -> list[str]:
        """Every document, in the order the doctest builder runs them."""
        return sorted(self.app.env.found_docs)

    def doctree(self, docname: str) -> nodes.document:
        """The document's doctree as the doctest builder sees it (not resolved).

        The same object every time: nodes are how blocks are matched to what
        surrounds them (Sphinx would unpickle a new tree on every call).
        """
        tree = self._doctrees.get(docname)
        if tree is None:
            try:
                tree = self.app.env.get_doctree(docname)
            except Exception:  # a cached doctree that cannot be read
                if self.folder is None:
                    raise
                self.app = _read(self.srcdir, self.confdir, self.folder, self.overrides, True).app
                tree = self.app.env.get_doctree(docname)
            self._doctrees[docname] = tree
        return tree

    def path_of(self, docname: str) -> Path:
        return Path(self.app.env.doc2path(docname))

    def drain_warnings(self) -> str:
        """Warnings logged since the last call (e.g. while a document's blocks were read)."""
        stream = self.warning_stream
        text = stream.getvalue()
        stream.seek(0)
        stream.truncate()
        return text


_projects: dict[tuple[Path, Path, tuple[tuple[str, str], ...]], SphinxProject] = {}


@dataclass(frozen=True)
class SphinxSource:
    """How to read a source folder: where ``conf.py`` is, and ``-D`` style overrides."""

    confdir: Path
    overrides: tuple[tuple[str, str], ...] = ()


def read_project(srcdir: Path, source: SphinxSource, cache_root: Path) -> SphinxProject:
    """The project at ``srcdir``, read once per process (per source)."""
    key = (srcdir.resolve(), source.confdir.resolve(), tuple(sorted(source.overrides)))
    project = _projects.get(key)
    if project is None:
        folder = cache_folder(cache_root, key[0], key[1])
        project = _projects[key] = _read(key[0], key[1], folder, dict(key[2]))
    return project


def cache_folder(cache_root: Path, srcdir: Path, confdir: Path) -> Path:
    """One folder per project, so that two projects never share an environment."""
    digest = hashlib.sha256(os.fsencode(srcdir) + b"\0" + os.fsencode(confdir)).hexdigest()
    # the folder's name in ASCII: a name the file system's encoding cannot spell (not
    # UTF-8, or not ASCII under LC_ALL=POSIX) must not make the cache unusable
    readable = srcdir.name.encode("ascii", "replace").decode("ascii").replace("?", "_")
    return cache_root / f"{readable or 'root'}-{digest[:16]}"


def _read(
    srcdir: Path, confdir: Path, folder: Path, overrides: dict[str, str], afresh: bool = False
) -> SphinxProject:
    """The project read with the cache in ``folder``; read afresh, without it, when a
    cached entry cannot be read (a run killed while writing it, a full disk, a stray
    edit): a broken cache costs a full read, never the run."""
    if afresh:
        shutil.rmtree(folder, ignore_errors=True)
    try:
        return _read_with(srcdir, confdir, folder, overrides)
    except (ProjectError, OSError):
        if afresh or not folder.is_dir():
            raise
    return _read(srcdir, confdir, folder, overrides, afresh=True)


def _read_with(
    srcdir: Path, confdir: Path, folder: Path, overrides: dict[str, str]
) -> SphinxProject:
    folder.mkdir(parents=True, exist_ok=True)
    stream = io.StringIO()
    compile_before = vars(doctest).get("compile")
    nocolor()  # warnings are shown as plain text
    # as sphinx-build reads: a docutils.conf beside conf.py applies, and what the app
    # registers in docutils' globals (nodes, directives, roles) goes with the reading;
    # left there, the next project read in this process warned of every node again
    with (
        _locked(folder),
        patch_docutils(confdir),
        docutils_namespace(),
        warnings.catch_warnings(),
    ):
        # extensions' own deprecation notices are not the project's problem
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        try:
            app = Sphinx(
                srcdir,
                confdir,
                folder / "out",
                folder / "doctrees",
                _BUILDER,
                confoverrides=overrides,
                status=None,
                warning=stream,
            )
            _update_environment(app, stream, folder / _WARNED_DOCS)
        except UnicodeDecodeError as exc:
            raise ProjectError(_undecodable(app, exc)) from exc
        except Exception as exc:
            raise ProjectError(f"Sphinx could not read {srcdir}: {exc}") from exc
        finally:
            # DocTestBuilder.init patches doctest.compile for the whole process;
            # this plugin installs Sphinx's compile per run instead (compiling.py).
            _set_doctest_compile(compile_before)
    return SphinxProject(srcdir, confdir, app, stream, stream.getvalue(), folder, overrides)


def _undecodable(app: Sphinx, error: UnicodeDecodeError) -> str:
    """Sphinx does not say which file it could not decode: find it."""
    encoding = app.config.source_encoding
    for docname in sorted(app.env.found_docs):
        path = Path(app.env.doc2path(docname))
        data = path.read_bytes()
        try:
            data.decode(encoding)
        except UnicodeDecodeError as bad:
            line = data.count(b"\n", 0, bad.start) + 1
            return f"{path}, line {line}: not {encoding} text ({bad.reason} at byte {bad.start})"
    return f"Sphinx could not read {app.srcdir}: {error}"


def _set_doctest_compile(function: object) -> None:
    """doctest calls the builtin ``compile`` unless its module has a global of that name."""
    if function is None:
        vars(doctest).pop("compile", None)
    else:
        doctest.compile = function  # type: ignore[attr-defined]


def _update_environment(app: Sphinx, stream: io.StringIO, warned_file: Path) -> None:
    """Sphinx's read phase (``Builder.build`` up to writing), without running any test.

    A document Sphinx warned about is read again next time, however old its cached
    doctree: a warning must not vanish just because the environment was cached. So is
    one whose content changed, whatever its modification time (freshness.py).
    """
    warned: set[str] | None = set()
    if warned_file.is_file():
        try:
            warned = set(json.loads(warned_file.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):  # unreadable: every document is read again
            warned = None

    def outdated(*args: object) -> set[str]:
        if warned is None:
            return set(app.env.found_docs)
        return (warned & app.env.found_docs) | changed_documents(app, warned_file.parent)

    app.connect("env-get-outdated", outdated)
    start = len(stream.getvalue())
    builder = app.builder
    updated = set(builder.read())
    updated.update(app.env.check_dependents(app, updated))
    if updated:
        with open(app.doctreedir / ENV_PICKLE_FILENAME, "wb") as handle:
            pickle.dump(app.env, handle, pickle.HIGHEST_PROTOCOL)
        app.env.check_consistency()
    text = stream.getvalue()[start:]
    warned_now = {
        docname
        for line in text.splitlines()
        if (docname := app.env.path2doc(line.partition(":")[0])) is not None
    }
    warned_file.write_text(json.dumps(sorted(warned_now)), encoding="utf-8")
    record_digests(app, warned_file.parent)


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    if fcntl is None:  # pragma: no cover - Windows
        yield
        return
    with open(folder / "lock", "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def default_cache_root() -> Path:
    """Where environments are cached when pytest's cache is off: per user, never shared."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sphinx-doctest-pytest"


__all__ = [
    "ProjectError",
    "SphinxProject",
    "SphinxSource",
    "cache_folder",
    "default_cache_root",
    "read_project",
]
