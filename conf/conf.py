"""Sphinx configuration for the forkwait spec (``sphinx-build -c conf docs build/html``)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the extension and the API reference come from this checkout

from conformance.implementation import DOCTEST_GLOBAL_SETUP  # noqa: E402

project = "forkwait-spec"
author = "forkwait-spec maintainers"
copyright = "2026, forkwait-spec maintainers"
release = version = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx_autodoc_typehints",
    "sphinx.ext.doctest",
    "conformance.sphinxext",
]
html_theme = "furo"
html_static_path = [str(ROOT / "conf" / "_static")]
html_title = "forkwait spec"
exclude_patterns = ["_build"]
nitpicky = False

# The harness runs exactly these, first in every group (conformance.implementation).
doctest_global_setup = DOCTEST_GLOBAL_SETUP
# Every example is a directive under a requirement; bare ">>>" paragraphs are prose.
doctest_test_doctest_blocks = ""

autodoc_member_order = "bysource"
autodoc_typehints = "description"
always_document_param_types = False
