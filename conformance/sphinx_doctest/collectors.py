"""The ``-p`` route's collectors: a Sphinx project's folder, and each of its documents.

With ``-p conformance.sphinx_doctest`` no conftest names the project: a folder
holding ``conf.py`` (or named with ``--sphinx-confdir``) is claimed whole, and
its documents are collected in the order Sphinx tests them, each as sybil's
``SybilFile`` over a SphinxSybil. ``DocumentFile`` subclasses ``SybilFile``
only to let a plugin make the items (the ``pytest_sphinx_doctest_items``
hook: the conformance layer names them by requirement and adds variants);
by default they are sybil's own ``SybilItem``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from sybil.integration.pytest import SybilFile, SybilItem

from conformance.sphinx_doctest.document import SphinxDocument, SphinxExample
from conformance.sphinx_doctest.entry import SphinxSybil
from conformance.sphinx_doctest.project import SphinxSource


class ProjectDir(pytest.Directory):
    """A Sphinx source folder: its documents, in the order Sphinx tests them."""

    def __init__(self, *, source: SphinxSource, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sybil = SphinxSybil(self.path, source, config=self.config)

    def collect(self) -> Iterable[DocumentFile]:
        project = self.sybil.project()
        for docname in project.docnames():
            yield DocumentFile.from_parent(self, path=project.path_of(docname), sybils=[self.sybil])


class DocumentFile(SybilFile):
    """One document of a claimed project; a plugin may make its items (see above)."""

    @property
    def sybil(self) -> SphinxSybil:
        sybil = self.sybils[0]
        assert isinstance(sybil, SphinxSybil)
        return sybil

    @property
    def document(self) -> SphinxDocument:
        document = self.documents[0]
        assert isinstance(document, SphinxDocument)
        return document

    def collect(self) -> Iterable[pytest.Item]:
        self.documents.append(self.sybil.parse(self.path))
        examples = [e for e in self.document.examples() if isinstance(e, SphinxExample)]
        items: list[pytest.Item] = self.ihook.pytest_sphinx_doctest_items(
            parent=self, examples=examples
        )
        return items


def default_items(parent: DocumentFile, examples: list[SphinxExample]) -> list[pytest.Item]:
    return [SybilItem.from_parent(parent, sybil=parent.sybil, example=e) for e in examples]
