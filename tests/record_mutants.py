"""Write docs/_results/mutants.json: the mutant suite's catalogue, as the spec's coverage page
shows it (``python -m tests.record_mutants``; tests/test_teeth_page.py checks it is current)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_mutants import MUTANTS, describe

RECORD = Path(__file__).resolve().parent.parent / "docs" / "_results" / "mutants.json"


def record() -> str:
    """The record's text: every mutant, what it gets wrong, what it breaks and fails besides."""
    mutants = {
        name: {
            "about": describe(name),
            "breaks": sorted(mutant.breaks),
            "extras": sorted(mutant.extras),
        }
        for name, mutant in sorted(MUTANTS.items())
    }
    return json.dumps({"format": 1, "mutants": mutants}, indent=1) + "\n"


if __name__ == "__main__":
    RECORD.write_text(record(), encoding="utf-8")
    print(f"wrote {RECORD} ({len(MUTANTS)} mutants)")
