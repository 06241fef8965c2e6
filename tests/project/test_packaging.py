"""Every Python package of the project is in pyproject.toml's explicit package list.

The list is explicit (the spec's folders are mapped under other names), so a new
folder is left out of the wheel silently until an installed run fails to import
it, as conformance/executor/ once was (make wheel-smoke found it; this finds it first).
"""

from __future__ import annotations

import tomllib

from tests.paths import REPO

ROOT = REPO


def test_every_package_folder_is_listed() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("conformance", "reference_impl", "dask_impl")
        for init in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found - listed == set()
