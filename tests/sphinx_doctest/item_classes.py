"""A pytest plugin (``-p tests.sphinx_doctest.item_classes``) that prints each item's class.

One line per collected item: ``ITEM <nodeid> <class name> <is a SybilItem>``.
"""

from __future__ import annotations

import pytest
from sybil.integration.pytest import SybilItem


def pytest_collection_finish(session: pytest.Session) -> None:
    for item in session.items:
        kind = type(item).__name__
        print(f"ITEM {item.nodeid} {kind} {isinstance(item, SybilItem)}")
