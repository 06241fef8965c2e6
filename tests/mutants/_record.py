"""Write docs/_teeth/mutants.json: the contracts the mutant modules declare, as the spec's coverage
page shows it (``python -m tests.mutants._record``; tests/spec/test_teeth_page.py checks it
is current)."""

from __future__ import annotations

import json

from tests.mutants._catalogue import contracts, describe
from tests.paths import DOCS

RECORD = DOCS / "_teeth" / "mutants.json"


def record() -> str:
    """The record's text: every mutant, what it gets wrong, what it breaks and fails besides."""
    mutants = {
        name: {
            "about": describe(name),
            "breaks": sorted(mutant.breaks),
            "extras": sorted(mutant.extras),
        }
        for name, mutant in sorted(contracts().items())
    }
    return json.dumps({"format": 1, "mutants": mutants}, indent=1) + "\n"


if __name__ == "__main__":
    RECORD.write_text(record(), encoding="utf-8")
    print(f"wrote {RECORD} ({len(contracts())} mutants)")
