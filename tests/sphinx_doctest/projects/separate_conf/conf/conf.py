"""Fixture project "separate_conf": conf.py in conf/, the sources in src/.

Built with ``sphinx-build -c conf`` (the plugin: ``--sphinx-confdir conf``).
``doctest_default_flags`` = ELLIPSIS | NORMALIZE_WHITESPACE (no
IGNORE_EXCEPTION_DETAIL, no DONT_ACCEPT_TRUE_FOR_1);
``doctest_test_doctest_blocks = "blocks"`` puts plain ">>>" paragraphs in the
group "blocks". The global setup binds ``mark`` as in "core", without marking.
"""

import doctest
import os
import sys

# autodoc imports src/documented.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

project = "separate_conf"
extensions = ["sphinx.ext.doctest", "sphinx.ext.autodoc"]

doctest_default_flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
doctest_test_doctest_blocks = "blocks"
doctest_global_setup = """
import os as _os


def mark(label):
    path = _os.environ.get("SPHINX_DOCTEST_ORDER")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{_os.getpid()}\\t{label}\\n")
"""
