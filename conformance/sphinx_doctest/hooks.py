"""Hooks through which another plugin builds on this one (the forkwait conformance layer does)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conformance.sphinx_doctest.collectors import DocumentFile
    from conformance.sphinx_doctest.project import SphinxSource
    from conformance.sphinx_doctest.specs import TestSpec


@pytest.hookspec(firstresult=True)
def pytest_sphinx_doctest_project(path: Path, config: pytest.Config) -> SphinxSource | None:
    """How to read ``path`` if it is a Sphinx source folder to collect, else None.

    The default: ``path`` with its own ``conf.py``, or with ``--sphinx-confdir``
    if ``path`` was named on the command line.
    """


@pytest.hookspec(firstresult=True)
def pytest_sphinx_doctest_items(
    parent: DocumentFile, specs: list[TestSpec]
) -> list[pytest.Item] | None:
    """The items for a document's tests, in Sphinx's order.

    The default makes one :class:`~conformance.sphinx_doctest.items.DoctestItem`
    per spec. An implementation may name items differently, mark them, or add
    variants (items with a ``variant`` run in a namespace of their own).
    """
