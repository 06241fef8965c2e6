"""``sphinx_sybil``: a ``sybil.Sybil`` that runs a Sphinx project's doctests as Sphinx does.

In a project's ``conftest.py``::

    from conformance.sphinx_doctest import sphinx_sybil

    pytest_collect_file = sphinx_sybil("docs").pytest()

It composes with other Sybil objects as sybil's do (``(sphinx_sybil("docs") +
Sybil(parsers=[...], patterns=["*.md"])).pytest()``). What sybil cannot know
is added when pytest first asks the Sybil about a file: the pytest config
(where Sphinx's environment is cached, which items crashed a worker), and
this package's pytest plugin, whose hooks give Sphinx's setup, cleanup and
failure semantics to sybil's own ``SybilItem``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sybil import Document, Sybil
from sybil.sybil import SybilCollection

from conformance.sphinx_doctest.cache import cache_root, lasting
from conformance.sphinx_doctest.document import SphinxExample, document_type, sphinx_regions
from conformance.sphinx_doctest.project import ReadProject, SphinxSource, read_project

#: workerinput key of the nodeids that hung or crashed a process (never replayed)
FAULTED_KEY = "sphinx_doctest_faulted"
PLUGIN = "conformance.sphinx_doctest.plugin"
#: options of sybil.Sybil that sphinx_sybil decides itself
_OWN = ("parsers", "path", "document_types")


class SphinxSybil(Sybil):
    """A Sybil over one Sphinx source folder: Sphinx says which files are documents,
    and what their examples are (``document.SphinxDocument``)."""

    def __init__(
        self, srcdir: Path, source: SphinxSource, *, config: pytest.Config | None = None,
        **options: Any,
    ) -> None:  # fmt: skip
        clashing = sorted(set(options) & set(_OWN))
        if clashing:
            raise TypeError(
                f"sphinx_sybil() decides {', '.join(clashing)} itself (Sphinx reads the project)"
            )
        #: every document is a SphinxDocument, whatever its suffix (Sphinx's source_suffix)
        self.document_type = document_type(self)
        super().__init__(
            parsers=[sphinx_regions],
            path=str(srcdir.resolve()),
            document_types={None: self.document_type, ".py": self.document_type},
            **options,
        )
        self.source = source
        self.config = config
        self._project: ReadProject | None = None

    def attach(self, config: pytest.Config) -> None:
        """Use pytest's ``config``, and make sure this package's plugin is registered."""
        if self.config is None:
            self.config = config
        if not config.pluginmanager.has_plugin(PLUGIN):
            # by name, as ``-p`` does: the plugin builds on this module
            config.pluginmanager.import_plugin(PLUGIN)

    def project(self) -> ReadProject:
        if self._project is None:
            if self.config is None:
                raise RuntimeError(
                    "sphinx_sybil(...) runs under pytest: collect with its .pytest() "
                    "(alone, or added to other Sybil objects with +)"
                )
            self._project = read_project(
                self.path, self.source, cache_root(self.config), keep=lasting(self.config)
            )
        return self._project

    def docname_of(self, path: Path) -> str | None:
        """The Sphinx docname of ``path``, if Sphinx reads it as a document."""
        return self.project().docname_of(path)

    def should_parse(self, path: Path) -> bool:
        try:
            path.relative_to(self.path)
        except ValueError:
            return False
        if (self.patterns or self.filenames) and not super().should_parse(path):
            return False
        if any(path.relative_to(self.path).match(e) for e in self.excludes):
            return False
        return self.docname_of(path) is not None

    def parse(self, path: Path) -> Document:
        return self.document_type.parse(str(path), *self.parsers, encoding=self.encoding)

    def identify(self, example: Any) -> str:
        """Item names Sphinx's tests are known by (``testcode:line12[group]``), not sybil's
        ``line:N,column:M``: one block in several groups is several examples."""
        if not isinstance(example, SphinxExample):
            return super().identify(example)
        return f"sybil:{self.name},{example.name}" if self.name else example.name

    def faulted_nodeids(self) -> frozenset[str]:
        """Items known to have hung or crashed a process (from the xdist controller)."""
        workerinput: dict[str, Any] = getattr(self.config, "workerinput", {})
        return frozenset(workerinput.get(FAULTED_KEY, ()))

    def pytest(self) -> Callable[[Path, Any], Any]:
        return _attaching(self, super().pytest())

    def __add__(self, other: Sybil) -> SybilCollection:
        return SphinxSybilCollection((self, other))

    def __radd__(self, other: Sybil) -> SybilCollection:
        return SphinxSybilCollection((other, self))


class SphinxSybilCollection(SybilCollection):
    """sybil's SybilCollection, attaching its SphinxSybil members to pytest."""

    def pytest(self) -> Callable[[Path, Any], Any]:
        collect = super().pytest()
        for member in self:
            if isinstance(member, SphinxSybil):
                collect = _attaching(member, collect)
        return collect


def _attaching(
    sybil: SphinxSybil, collect: Callable[[Path, Any], Any]
) -> Callable[[Path, Any], Any]:
    def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Any:
        sybil.attach(parent.config)
        return collect(file_path, parent)

    return pytest_collect_file


def sphinx_sybil(
    srcdir: str | Path, *, confdir: str | Path | None = None, **sybil_options: Any
) -> Sybil:
    """A Sybil that collects the doctests of the Sphinx project in ``srcdir``.

    ``srcdir`` (and ``confdir``, the folder of ``conf.py`` when it is elsewhere)
    are resolved from the calling file's folder, as sybil resolves ``path``.
    Other keyword arguments go to ``sybil.Sybil`` (``patterns``, ``excludes``,
    ``fixtures``, ``name``...); Sphinx decides which files are documents.
    """
    caller = Path(inspect.stack(context=0)[1].filename).parent
    source_dir = (caller / srcdir).resolve()
    conf_dir = (caller / confdir).resolve() if confdir is not None else source_dir
    if not source_dir.is_dir():
        raise ValueError(f"sphinx_sybil: no folder {source_dir} (from {srcdir!r})")
    if not (conf_dir / "conf.py").is_file():
        raise ValueError(f"sphinx_sybil: no conf.py in {conf_dir} (give confdir=...)")
    return SphinxSybil(source_dir, SphinxSource(conf_dir), **sybil_options)


__all__ = ["FAULTED_KEY", "SphinxSybil", "SphinxSybilCollection", "sphinx_sybil"]
