"""Where the repository's parts are, for tests in any folder of tests/."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
RESULTS = DOCS / "_results"
FIXTURES = REPO / "tests" / "suite" / "fixtures"


def checkout_on_path(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's environment) with this checkout first on
    ``PYTHONPATH``: how a run of the suite imports the adapters of this project's tests
    (``tests.suite.adapters.NAME:adapter``, ``tests.mutants.NAME:adapter``), as any
    adapter that is not installed must be imported."""
    base = dict(os.environ if env is None else env)
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), base.get("PYTHONPATH", "")]))
    return base
