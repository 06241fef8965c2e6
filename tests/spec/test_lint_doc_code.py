"""tests/spec/lint_doc_code.py: ruff over the examples' and probes' code, findings at .rst lines."""

from __future__ import annotations

from pathlib import Path

from conformance.catalog.files import spec_conf_dir, spec_dir
from conformance.sphinx_doctest.project import default_cache_root
from tests.spec.lint_doc_code import findings, group_files

CONF = (
    "extensions = ['sphinx.ext.doctest', 'conformance.sphinx_ext.requirements']\n"
    "exclude_patterns = ['probes']\n"
    "doctest_global_setup = 'fw = object()'\n"
)
PAGE = """\
Page
====

.. testsetup::

   helper = 2

.. testcode::

   import os
   print(fw, helper)

.. testcode::

   import sys
   print(sys, undefined)

.. doctest::

   >>> import json
   >>> 1 + 1
   2
"""


def lint(tmp_path: Path, page: str, probe: str | None = None) -> list[str]:
    (tmp_path / "conf.py").write_text(CONF, encoding="utf-8")
    (tmp_path / "index.rst").write_text(page, encoding="utf-8")
    if probe is not None:
        (tmp_path / "probes" / "index").mkdir(parents=True)
        (tmp_path / "probes" / "index" / "ONE-1.rst").write_text(probe, encoding="utf-8")
    return findings(group_files(tmp_path, tmp_path, tmp_path / "cache"), tmp_path)


def test_findings_are_named_at_their_rst_line_and_column(tmp_path: Path) -> None:
    """Unused imports and an undefined name, each where it stands in the .rst; ``fw`` (from
    doctest_global_setup) and a name of the group's testsetup are known, and a ``>>>``
    expression shows its value (it is no useless expression)."""
    assert lint(tmp_path, PAGE) == [
        "index.rst:10:11: F401 `os` imported but unused",
        "index.rst:16:15: F821 Undefined name `undefined`",
        "index.rst:20:15: F401 `json` imported but unused",
    ]


def test_a_probe_files_code_is_named_in_that_file(tmp_path: Path) -> None:
    rule = (
        "One\n===\n\n.. requirement:: ONE-1\n   :profile: core\n   :level: MUST\n\n"
        "   It MUST.\n\n.. testcode::\n\n   print(1)\n\n.. probes:: ONE-1\n"
    )
    probe = "Lead-in.\n\n.. testcode::\n\n   unused = 1\n\n   def f():\n       lost = 2\n"
    assert lint(tmp_path, rule, probe) == [
        "probes/index/ONE-1.rst:8:8: F841 Local variable `lost` is assigned to but never used"
    ]


def test_a_name_defined_again_counts_only_within_one_example(tmp_path: Path) -> None:
    """Each example is a story of its own: defining ``f`` again in the next one is how
    examples are written; twice in one block is a finding."""
    page = (
        "P\n=\n\n.. testcode::\n\n   def f():\n       pass\n\n"
        ".. testcode::\n\n   def f():\n       pass\n\n   def f():\n       pass\n\n   f()\n"
    )
    assert lint(tmp_path, page) == [
        "index.rst:14:8: F811 Redefinition of unused `f` from line 11: `f` redefined here"
    ]


def test_the_specs_examples_and_probes_are_clean() -> None:
    found = findings(group_files(spec_dir(), spec_conf_dir(), default_cache_root()), spec_dir())
    assert found == [], "\n".join(found)
