"""Fixture project "core": Sphinx's defaults plus a global setup and cleanup.

Every directive, option, pairing and edge case that does not need another
configuration value has one document here. ``doctest_global_setup`` binds
``mark(label)``, which appends ``<pid>\\t<label>`` to the order log named by
``SPHINX_DOCTEST_ORDER``, and marks ``global-setup`` itself; the global cleanup
marks ``global-cleanup``. ``is_fixture`` is there for ``:skipif:`` expressions.
"""

import os
import sys

# autodoc imports sample_module from this folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

project = "core"
extensions = ["sphinx.ext.doctest", "sphinx.ext.autodoc", "sphinx.ext.ifconfig"]
# includes/ holds a file included by include.rst: not a document of its own
exclude_patterns = ["includes"]

doctest_global_setup = """
import os as _os


def mark(label):
    path = _os.environ.get("SPHINX_DOCTEST_ORDER")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{_os.getpid()}\\t{label}\\n")


is_fixture = True
mark("global-setup")
"""
doctest_global_cleanup = 'mark("global-cleanup")'
