"""pytest-sphinx reads two options of pytest's doctest plugin: here they are, without it.

Loaded by peers.py as ``-p no:doctest -p peers_shim``, so that pytest-sphinx is
the only collector of the documents (pytest's plugin would collect them too).
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("peers-shim", "pytest's doctest options, for pytest-sphinx")
    group.addoption("--doctest-modules", action="store_true", dest="doctestmodules")
    group.addoption("--doctest-glob", action="append", default=[], dest="doctestglob")
