"""Sphinx configuration for the forkwait spec (``sphinx-build -c conf docs build/html``).

The conformance suite reads the spec with this file too, so its
``doctest_global_setup`` is what binds ``fw`` in every example, under
``sphinx-build -b doctest`` and under the suite alike.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
if (CHECKOUT / "conformance" / "sphinx_ext").is_dir():  # a checkout, not an installed suite
    sys.path.insert(0, str(CHECKOUT))  # the extension and the API reference come from it

project = "forkwait-spec"
author = "forkwait-spec maintainers"
copyright = "2026, forkwait-spec maintainers"
release = version = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx_autodoc_typehints",
    "sphinx.ext.doctest",
    "sphinx.ext.graphviz",
    "conformance.sphinx_ext.requirements",
    # figures drawn from real runs of the reference when the HTML is written
    # (traced graphs need Graphviz's `dot`: `make docs` says how to install it)
    "conformance.sphinx_ext.figures_from_runs",
]
graphviz_output_format = "svg"
# sphinx_autodoc_typehints calls a Sphinx API deprecated for Sphinx 10, once per
# docstring: its warning says nothing about the spec and buries real output.
warnings.filterwarnings("ignore", module="sphinx_autodoc_typehints", message=".*deprecated")
html_theme = "furo"
html_static_path = [str(HERE / "_static")]
html_title = "forkwait spec"
# probes/: each rule's probes, parsed into its page by the probes directive
exclude_patterns = ["_build", "probes"]
nitpicky = False

# Every example runs in a namespace that starts with this, in every group: ``fw`` is
# the implementation under test (the one the suite selected; under sphinx-build,
# $FORKWAIT_IMPL or the reference). The module name gives functions an importable
# __module__, which compilers such as TorchScript need to name them.
doctest_global_setup = """
__name__ = "forkwait_spec_example"
from conformance.run.implementation import current_fw
fw = current_fw()
"""
# Every example is a directive under a requirement; bare ">>>" paragraphs are prose.
doctest_test_doctest_blocks = ""

autodoc_member_order = "bysource"
autodoc_typehints = "description"
always_document_param_types = False
