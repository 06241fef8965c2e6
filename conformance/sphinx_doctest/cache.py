"""Where a pytest run keeps Sphinx's environments (read once, reused by later runs).

Its own module because both routes need it: the ``-p`` route's collectors and
``sphinx_sybil``'s entry, which the collectors build on.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

_TEMP_CACHE = pytest.StashKey[Path]()


def cache_root(config: pytest.Config) -> Path:
    """Where Sphinx environments are kept: ``--sphinx-cache-dir``, pytest's cache, or a
    folder of this session only (so a run with the cache disabled leaves nothing behind)."""
    option = config.getoption("sphinx_cache_dir", None)
    if option:
        return Path(option)
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("sphinx-doctest"))
    if _TEMP_CACHE not in config.stash:
        folder = Path(tempfile.mkdtemp(prefix="sphinx-doctest-"))
        config.stash[_TEMP_CACHE] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    return config.stash[_TEMP_CACHE]


def lasting(config: pytest.Config) -> bool:
    """Does the cache outlive this session? A snapshot kept in one that does not
    (snapshot.py) would only cost its writing."""
    cache_root(config)
    return _TEMP_CACHE not in config.stash


__all__ = ["cache_root", "lasting"]
