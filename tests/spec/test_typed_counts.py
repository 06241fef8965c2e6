"""README and the docs' prose type no counts of the spec's rules, examples or mutants, nor of
the suite's tests: each new rule or test made such a number stale. The counts a reader needs
come from the spec when the pages are built (``.. requirement-counts::``) and from each run's
own table and verdict.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.paths import DOCS, REPO

#: a number of the project's own things, as a sentence would type it
COUNTED = r"examples?|probes?|requirements?|rules?|mutants?|one-bug variants"
TYPED_COUNTS = [
    # "323 examples", "184 of them probes", "148 one-bug variants"
    re.compile(rf"\b\d[\d,]*\s+(?:of them\s+)?(?:{COUNTED})\b"),
    # "core 46/46 MUST", "MUST: 82/82 passed", the table's "core MUST 46 46"
    re.compile(r"\b\d+/\d+\s+(?:MUST|SHOULD|MAY|passed)\b"),
    re.compile(r"\b(?:MUST|SHOULD|MAY):?\s+\d+(?:/|\s+)\d+\b"),
]
#: README alone counts the project's tests ("1,251 tests")
README_COUNTS = [*TYPED_COUNTS, re.compile(r"\b\d[\d,]*\s+tests\b")]

#: sphinx-doctest.rst measures the generic engine on projects it generates, whose sizes
#: ("0.2 s of CPU per 2,020 examples") are part of each measurement
PAGES = sorted(page for page in DOCS.glob("*.rst") if page.name != "sphinx-doctest.rst")


def typed_counts(text: str, patterns: list[re.Pattern[str]]) -> list[str]:
    return [
        f"line {text.count(chr(10), 0, match.start()) + 1}: {match.group(0)!r}"
        for pattern in patterns
        for match in pattern.finditer(text)
    ]


def test_readme_types_no_counts() -> None:
    assert typed_counts((REPO / "README.md").read_text(encoding="utf-8"), README_COUNTS) == []


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_a_docs_page_types_no_counts(page: Path) -> None:
    assert typed_counts(page.read_text(encoding="utf-8"), TYPED_COUNTS) == []


def test_the_patterns_find_the_counts_that_drifted() -> None:
    stale = [
        "7-10 s: 323 examples",
        "184 of them probes",
        "5 min 15 s measured, 1,251 tests",
        "148 one-bug variants",
        "then `MUST: 82/82 passed`",
        "the row ``core MUST 46 46``",
        "the verdict's ``core 46/46 MUST``",
    ]
    assert [line for line in stale if not typed_counts(line, README_COUNTS)] == []
    assert typed_counts("a chain of 1,000 forks, 16 threads, 2,000 tests", TYPED_COUNTS) == []
