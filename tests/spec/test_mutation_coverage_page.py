"""docs/coverage.rst's mutation coverage: per requirement, its examples, probes and the mutants
that fail it. Its record is the contracts the mutant modules declare, and it renders as a reader
needs it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.mutants._record import RECORD, record
from tests.sphinx_app import build


def test_the_recorded_mutants_are_the_mutant_suites() -> None:
    assert RECORD.read_text(encoding="utf-8") == record(), (
        "docs/_mutation/mutants.json is stale: run python -m tests.mutants._record"
    )


def test_the_table_lists_each_rules_examples_probes_and_mutants(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(
        "extensions = ['sphinx.ext.doctest', 'conformance.sphinx_ext.requirements']\n"
        "exclude_patterns = ['probes']\n"
    )
    mutants = {
        "format": 2,
        "mutants": {
            "breaks_one": {
                "about": "Breaks ONE.",
                "breaks": ["ONE-1"],
                "extras": [],
                "base": "reference",
                "survives": "",
                "chance": "",
            },
            "also_one": {
                "about": "Fails ONE too.",
                "breaks": ["TWO-1"],
                "extras": ["ONE-1"],
                "base": "pool",
                "survives": "",
                "chance": "",
            },
            "passes_one": {
                "about": "Breaks ONE unseen.",
                "breaks": ["ONE-1"],
                "extras": [],
                "base": "pool",
                "survives": "no probe forks from a callback",
                "chance": "",
            },
            "races_one": {
                "about": "Breaks ONE at times.",
                "breaks": ["ONE-1"],
                "extras": [],
                "base": "reference",
                "survives": "",
                "chance": "no probe forces the race",
            },
        },
    }
    (tmp_path / "m.json").write_text(json.dumps(mutants))
    rule = (
        ".. requirement:: {id}\n   :profile: core\n   :level: MUST\n\n   It MUST.\n\n"
        ".. testcode::\n\n   print(1)\n\n.. testoutput::\n\n   1\n\n"
    )
    probes = ".. probes:: ONE-1\n\n"
    (tmp_path / "probes" / "index").mkdir(parents=True)
    (tmp_path / "probes" / "index" / "ONE-1.rst").write_text("More.\n\n.. testcode::\n\n   pass\n")
    (tmp_path / "index.rst").write_text(
        "T\n=\n\n" + rule.format(id="ONE-1") + probes + rule.format(id="TWO-1")
        + ".. mutation-coverage:: m.json\n"
    )  # fmt: skip
    _, warnings = build(tmp_path, tmp_path / "out", tmp_path / "dt", "html")
    assert warnings == ""
    html = (tmp_path / "out" / "index.html").read_text()
    table = html.partition('class="forkwait-mutation-coverage')[2].partition("</table>")[0]
    one = table.partition(">ONE-1<")[2].partition("</tr>")[0]
    assert [cell.split(">")[-1] for cell in one.split("</p>")[1:4]] == ["MUST", "1", "1"]
    strong = '<strong><code class="docutils literal notranslate"><span class="pre">'
    assert f"{strong}breaks_one</span>" in one  # meant to break it: in bold
    assert "also_one" in one
    assert f"{strong}also_one" not in one
    assert "Fails ONE too." in html
    # the listing says which implementation a mutant changes when it is not the reference
    listing = html.partition('forkwait-mutants"')[2]
    breaks_one = listing.partition(">breaks_one<")[2].partition("</dt>")[0]
    also_one = listing.partition(">also_one<")[2].partition("</dt>")[0]
    assert "variant" not in breaks_one
    assert "(a variant of the independent pool)" in also_one
    # a survivor fails no rule: its row names it apart, the listing says what is not probed
    assert f"{strong}passes_one" not in one
    assert "survivor: <em><code" in one
    assert "The suite passes it (a survivor): <em>no probe forks from a callback</em>" in html
    assert f"{strong}races_one" not in one
    assert "by chance: <em><code" in one
    assert "in some runs only: <em>no probe forces the race</em>" in html


def test_a_must_no_mutant_fails_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(
        "extensions = ['sphinx.ext.doctest', 'conformance.sphinx_ext.requirements']\n"
    )
    (tmp_path / "m.json").write_text(json.dumps({"format": 2, "mutants": {}}))
    (tmp_path / "index.rst").write_text(
        "T\n=\n\n.. requirement:: ONE-1\n   :profile: core\n   :level: MUST\n\n   It MUST.\n\n"
        ".. testcode::\n\n   pass\n\n.. mutation-coverage:: m.json\n"
    )
    _, warnings = build(tmp_path, tmp_path / "out", tmp_path / "dt", "html")
    assert "no mutant fails the MUST ONE-1" in warnings
