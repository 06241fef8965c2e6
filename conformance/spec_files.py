"""Where the spec's ``.rst`` files are, installed or in a source checkout.

A wheel ships ``docs/`` as the package data ``conformance/spec`` (see
``pyproject.toml``), so the suite runs from any directory after ``pip install``.
Editable installs cannot map a subpackage onto another folder, so from a
checkout the repository's own ``docs/`` is used.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

MARKER = "index.rst"


def spec_dir() -> Path:
    """The absolute folder holding the spec documents."""
    packaged = Path(str(files("conformance") / "spec"))
    if (packaged / MARKER).is_file():
        return packaged.resolve()
    checkout = Path(__file__).resolve().parent.parent / "docs"
    if (checkout / MARKER).is_file():
        return checkout
    raise FileNotFoundError(
        f"forkwait spec documents not found: looked for {MARKER} in {packaged} and {checkout}"
    )
