"""Where the spec's documents and its Sphinx configuration are, installed or in a checkout.

A wheel ships ``docs/`` as the package data ``conformance/spec`` and ``conf/``
as ``conformance/spec_conf`` (see ``pyproject.toml``), so the suite runs from
any directory after ``pip install``. Editable installs cannot map a subpackage
onto another folder, so from a checkout the repository's own folders are used.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]


def _first_with(marker: str, *folders: Path) -> Path:
    for folder in folders:
        if (folder / marker).is_file():
            return folder.resolve()
    raise FileNotFoundError(
        f"forkwait spec files not found: looked for {marker} in "
        + ", ".join(str(folder) for folder in folders)
    )


def spec_dir() -> Path:
    """The absolute folder holding the spec documents."""
    return _first_with("index.rst", Path(str(files("conformance") / "spec")), _CHECKOUT / "docs")


def spec_conf_dir() -> Path:
    """The folder holding the spec's ``conf.py`` (it binds ``fw`` for every example)."""
    return _first_with("conf.py", Path(str(files("conformance") / "spec_conf")), _CHECKOUT / "conf")
