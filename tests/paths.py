"""Where the repository's parts are, for tests in any folder of tests/."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
RESULTS = DOCS / "_results"
FIXTURES = REPO / "tests" / "suite" / "fixtures"
