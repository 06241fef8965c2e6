"""A run of doc tests only freezes what collection built; a mixed session is left alone."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

CONF = 'extensions = ["sphinx.ext.doctest"]\n'
DOCUMENT = """\
Frozen
======

.. testcode::

   import gc
   print(gc.get_freeze_count() > 0)

.. testoutput::

   {frozen}
"""


def run(pytester: pytest.Pytester) -> pytest.RunResult:
    return pytester.runpytest_subprocess(
        "-p", "conformance.sphinx_doctest", "-p", "no:cacheprovider", str(pytester.path)
    )  # fmt: skip


def test_a_run_of_doc_tests_only_freezes_what_collection_built(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(conf=CONF)
    pytester.makefile(".rst", index=DOCUMENT.format(frozen=True))
    run(pytester).assert_outcomes(passed=1)


def test_a_session_with_other_tests_is_not_frozen(pytester: pytest.Pytester) -> None:
    docs = pytester.mkdir("docs")
    (docs / "conf.py").write_text(CONF, encoding="utf-8")
    (docs / "index.rst").write_text(DOCUMENT.format(frozen=False), encoding="utf-8")
    pytester.makepyfile(
        test_other="import gc\n\ndef test_x():\n    assert not gc.get_freeze_count()\n"
    )
    run(pytester).assert_outcomes(passed=2)
