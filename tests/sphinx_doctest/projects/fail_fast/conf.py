"""Fixture project "fail_fast": ``doctest_fail_fast = True``.

The global setup binds ``mark`` as in "core" and marks ``global-setup``; the
global cleanup marks ``global-cleanup``.
"""

project = "fail_fast"
extensions = ["sphinx.ext.doctest"]

doctest_fail_fast = True
doctest_global_setup = """
import os as _os


def mark(label):
    path = _os.environ.get("SPHINX_DOCTEST_ORDER")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{_os.getpid()}\\t{label}\\n")


mark("global-setup")
"""
doctest_global_cleanup = 'mark("global-cleanup")'
