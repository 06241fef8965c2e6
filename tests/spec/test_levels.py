"""Every requirement has an RFC 2119 level that matches its text, shown wherever it is listed.

The level checks read the spec; the rendering checks build a one-page Sphinx
project with ``conformance.sphinx_ext.requirements`` and look at the doctree and the HTML a
reader gets: the box's permalink and level, the index's level column, and the
"Output" caption on every ``testoutput``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sphinx.application import Sphinx

from conformance.catalog.files import spec_dir
from conformance.catalog.nodes import requirement_node
from conformance.catalog.requirements import requirements_in
from conformance.catalog.vocabulary import LEVELS
from tests import sphinx_app

REQUIREMENT = re.compile(r"^\.\. requirement:: (\S+)\n((?:   :[\w-]+:.*\n)*)", re.MULTILINE)


def strongest_keyword(text: str) -> str | None:
    """MUST (or MUST NOT) beats SHOULD beats MAY; None if the text has none."""
    return next((level for level in LEVELS if re.search(rf"\b{level}\b", text)), None)


def declared_levels() -> dict[str, str | None]:
    """Requirement ID -> the ``:level:`` written in its directive (None when missing)."""
    found: dict[str, str | None] = {}
    for path in sorted(spec_dir().glob("*.rst")):
        for match in REQUIREMENT.finditer(path.read_text(encoding="utf-8")):
            level = re.search(r":level:\s*(\S+)", match.group(2))
            found[match.group(1)] = level.group(1) if level else None
    return found


def test_every_requirement_declares_a_level() -> None:
    levels = declared_levels()
    assert set(levels) == set(requirements_in(spec_dir()))
    assert {rid: level for rid, level in levels.items() if level not in LEVELS} == {}


@pytest.mark.parametrize("req_id", sorted(requirements_in(spec_dir())))
def test_the_level_is_the_strongest_keyword_of_the_text(req_id: str) -> None:
    requirement = requirements_in(spec_dir())[req_id]
    assert requirement.level == strongest_keyword(requirement.text), requirement.text


def test_no_requirement_is_a_bare_may() -> None:
    """A MAY no implementation can fail is prose; inside a requirement it qualifies a MUST."""
    mays = [rid for rid, r in requirements_in(spec_dir()).items() if r.level == "MAY"]
    assert mays == []


def test_the_spec_has_musts_and_a_should() -> None:
    levels = [r.level for r in requirements_in(spec_dir()).values()]
    assert levels.count("MUST") >= 40
    assert "SHOULD" in levels


PAGE = """\
Page
====

.. requirement:: DEMO-RULE-1
   :profile: core
   :level: SHOULD
   :explore:

   An implementation SHOULD print ``ok``.

.. testcode::

   print("ok")

.. testoutput::

   ok

Index
-----

.. requirement-index::
"""


def build(tmp_path: Path, page: str) -> tuple[Sphinx, str]:
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        'extensions = ["sphinx.ext.doctest", "conformance.sphinx_ext.requirements"]\n',
        encoding="utf-8",
    )
    (source / "index.rst").write_text(page, encoding="utf-8")
    return sphinx_app.build(source, tmp_path / "html", tmp_path / "doctrees", "html")


def test_the_box_carries_its_level_and_a_permalink(tmp_path: Path) -> None:
    app, warnings = build(tmp_path, PAGE)
    assert "ERROR" not in warnings, warnings
    box = next(app.env.get_doctree("index").findall(requirement_node))
    assert (box["req_id"], box["profile"], box["level"], box["explore"]) == (
        "DEMO-RULE-1",
        "core",
        "SHOULD",
        True,
    )
    html = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="[^"]*forkwait-permalink[^"]*" href="#req-demo-rule-1"', html)
    assert 'class="forkwait-level forkwait-level-should">SHOULD<' in html
    # the index has a level column, and the testoutput block its caption
    assert "<p>level</p>" in html
    assert "<p>SHOULD</p>" in html
    assert '<span class="caption-text">Output</span>' in html


def test_a_requirement_without_a_level_is_an_error(tmp_path: Path) -> None:
    _, warnings = build(tmp_path, PAGE.replace("   :level: SHOULD\n", ""))
    assert "DEMO-RULE-1 needs a :level:" in warnings


def test_an_unknown_level_is_an_error(tmp_path: Path) -> None:
    _, warnings = build(tmp_path, PAGE.replace(":level: SHOULD", ":level: should"))
    assert "'should' is not a level" in warnings
