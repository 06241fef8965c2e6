"""Hooks through which another plugin builds on this one (the forkwait conformance layer does)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conformance.sphinx_doctest.collectors import DocumentFile
    from conformance.sphinx_doctest.document import SphinxExample
    from conformance.sphinx_doctest.project import SphinxSource


@pytest.hookspec(firstresult=True)
def pytest_sphinx_doctest_project(path: Path, config: pytest.Config) -> SphinxSource | None:
    """How to read ``path`` if it is a Sphinx source folder to collect, else None.

    The default: ``path`` with its own ``conf.py``, or with ``--sphinx-confdir``
    if ``path`` was named on the command line.
    """


@pytest.hookspec(firstresult=True)
def pytest_sphinx_doctest_items(
    parent: DocumentFile, examples: list[SphinxExample]
) -> list[pytest.Item] | None:
    """The items for a document's examples (one per test, in Sphinx's order).

    The default makes one sybil ``SybilItem`` per example, named by
    ``example.name``. An implementation may rename examples, mark the items,
    or add variants (``example.variant_of``: run in a namespace of their own);
    every item it returns should be a ``SybilItem`` over ``parent.sybil``.
    """
