"""Every requirement of a spec folder, by ID: what the reports are keyed on.

The controller of an xdist run collects nothing itself, yet must know the
profile of a requirement whose only example crashed a worker; it reads the
documents' requirement directives for that.
"""

from __future__ import annotations

import re
from pathlib import Path

from sybil import Document

from conformance.blocks import Requirement, SpecParser, SpecSyntaxError

_TOCTREE_ENTRY = re.compile(r"^\s{3,}([\w/-]+)\s*$")


def documents_in_reading_order(root: Path) -> list[Path]:
    """The ``.rst`` files under ``root``: those ``index.rst`` lists first, in its order."""
    paths = sorted(root.glob("**/*.rst"))
    index = root / "index.rst"
    listed: list[Path] = []
    if index.is_file():
        for line in index.read_text(encoding="utf-8").splitlines():
            match = _TOCTREE_ENTRY.match(line)
            if match and (root / f"{match.group(1)}.rst") in paths:
                listed.append(root / f"{match.group(1)}.rst")
    return listed + [path for path in paths if path not in listed]


def requirements_in(root: Path) -> dict[str, Requirement]:
    """Requirement ID -> Requirement, for every ``.rst`` under ``root``, in document order."""
    found: dict[str, Requirement] = {}
    for path in documents_in_reading_order(root):
        try:
            document = Document.parse(str(path), SpecParser())
        except SpecSyntaxError:
            continue  # collecting the document reports the error, with its line
        for example in document.examples():
            if isinstance(example.parsed, Requirement):
                found.setdefault(example.parsed.id, example.parsed)
    return found
