"""Write docs/_mutation/mutants.json: the mutants' declared contracts, as the spec's coverage
page shows them (``python -m tests.mutants._record``;
tests/spec/test_mutation_coverage_page.py checks the file is current).

The page renders from this record, not from the modules, so that the installed spec
builds without the project's tests.
"""

from __future__ import annotations

import json

from tests.mutants._catalogue import base_of, contracts, describe
from tests.paths import DOCS

RECORD = DOCS / "_mutation" / "mutants.json"


def record() -> str:
    """The record's text: every mutant, what it gets wrong, what it breaks and fails besides,
    and which implementation it changes."""
    mutants = {
        name: {
            "about": describe(name),
            "breaks": sorted(mutant.breaks),
            "extras": sorted(mutant.extras),
            "base": base_of(name),
            "survives": mutant.survives,
            "chance": mutant.chance,
        }
        for name, mutant in sorted(contracts().items())
    }
    return json.dumps({"format": 2, "mutants": mutants}, indent=1) + "\n"


if __name__ == "__main__":
    text = record()
    RECORD.write_text(text, encoding="utf-8")
    print(f"wrote {RECORD} ({len(json.loads(text)['mutants'])} mutants)")
