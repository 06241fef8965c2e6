"""What Sphinx's read leaves in the process that runs the tests, done without Sphinx.

Under ``sphinx-build -b doctest`` the tests run in the process that ran the
project's ``conf.py`` (a folder put on ``sys.path``, an environment variable
set there is there for them) and whose doctest builder put ``doctest_path``
first on ``sys.path``. A process that runs tests of a project Sphinx did not
read in it - an executor, or a run from a snapshot of an earlier read
(snapshot.py) - does the same here. Extensions' ``setup`` does not run: what
they give the tests travels in the groups.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from sphinx.config import eval_config_file
from sphinx.util.tags import Tags


def configure_like_sphinx(confdir: Path, doctest_path: Sequence[str] = ()) -> None:
    """Run ``conf.py`` as Sphinx runs it (``eval_config_file``, before any builder tag
    is set), then put ``doctest_path`` first on ``sys.path`` as the builder's ``init``."""
    conf = confdir / "conf.py"
    if conf.is_file():
        eval_config_file(conf, Tags())
    sys.path[0:0] = list(doctest_path)


__all__ = ["configure_like_sphinx"]
