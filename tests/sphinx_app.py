"""Tests build a Sphinx project in-process the way sphinx-build does.

Inside ``docutils_namespace()``: what the app registers in docutils' globals (nodes,
directives, roles) goes with it. Left there, every later Sphinx app in the same test
process warned that each node was "already registered".
"""

from __future__ import annotations

import io
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace


def build(source: Path, out: Path, doctrees: Path, builder: str) -> tuple[Sphinx, str]:
    """Build ``source`` (which holds conf.py) afresh: the app, and its warnings."""
    warnings = io.StringIO()
    with docutils_namespace():
        app = Sphinx(
            str(source), str(source), str(out), str(doctrees), builder,
            status=None, warning=warnings, freshenv=True,
        )  # fmt: skip
        app.build()
    return app, warnings.getvalue()
