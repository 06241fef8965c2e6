"""Every requirement of a spec folder, by ID: what the reports are keyed on.

The controller of an xdist run collects nothing itself, yet must know the
profile of a requirement whose only example crashed a worker; it reads the
documents' requirement directives for that.
"""

from __future__ import annotations

from pathlib import Path

from sybil import Document

from conformance.blocks import Requirement, SpecParser, SpecSyntaxError


def requirements_in(root: Path) -> dict[str, Requirement]:
    """Requirement ID -> Requirement, for every ``.rst`` under ``root``, in document order."""
    found: dict[str, Requirement] = {}
    for path in sorted(root.glob("**/*.rst")):
        try:
            document = Document.parse(str(path), SpecParser())
        except SpecSyntaxError:
            continue  # collecting the document reports the error, with its line
        for example in document.examples():
            if isinstance(example.parsed, Requirement):
                found.setdefault(example.parsed.id, example.parsed)
    return found
