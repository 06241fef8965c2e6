"""Variants of independent implementations: each edit applies exactly once, the edited package
is a package of its own (its absolute imports of itself included), and a changed edit or base is
never served from an earlier copy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.mutants._variants import Edit, EditError, Variant, edited_sources, materialise


def _base(root: Path) -> Path:
    pkg = root / "toy"
    (pkg / "inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from tests.independent.toy.inner.core import answer\n")
    (pkg / "inner" / "__init__.py").write_text("")
    (pkg / "inner" / "core.py").write_text("def answer() -> int:\n    return 42\n")
    return pkg


def test_an_edit_changes_its_file_only(tmp_path: Path) -> None:
    _base(tmp_path)
    variant = Variant("toy", Edit("inner/core.py", old="return 42", new="return 41"))
    sources = edited_sources(variant, tmp_path)
    assert sources[Path("inner/core.py")] == "def answer() -> int:\n    return 41\n"
    assert sources[Path("inner/__init__.py")] == ""


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (Edit("inner/core.py", old="return 7", new="x"), "occurs 0 times"),
        (Edit("inner/core.py", old="t", new="x"), "occurs 2 times"),
        (Edit("nowhere.py", old="a", new="b"), "toy/nowhere.py: no such file"),
    ],
)
def test_an_edit_that_does_not_apply_once_is_refused(
    tmp_path: Path, edit: Edit, message: str
) -> None:
    _base(tmp_path)
    with pytest.raises(EditError, match=message):
        edited_sources(Variant("toy", edit), tmp_path)


def test_a_variant_names_its_base_and_needs_an_edit(tmp_path: Path) -> None:
    with pytest.raises(EditError, match="no independent implementation 'gone'"):
        edited_sources(Variant("gone", Edit("a.py", "a", "b")), tmp_path)
    with pytest.raises(EditError, match="needs at least one edit"):
        Variant("toy")


def test_the_edited_package_imports_itself_and_not_its_base(tmp_path: Path) -> None:
    # a checkout-like root: tests/independent/ holds the base; the copy must be importable by
    # name from a fresh interpreter (examples pickle fw's names into child interpreters)
    independent = tmp_path / "tests" / "independent"
    independent.mkdir(parents=True)
    (tmp_path / "tests" / "__init__.py").write_text("")
    (independent / "__init__.py").write_text("")
    _base(independent)
    name = materialise(Variant("toy", Edit("inner/core.py", "return 42", "return 41")), independent)
    assert name.startswith("toy_")
    assert (
        materialise(Variant("toy", Edit("inner/core.py", "return 42", "return 41")), independent)
        == name
    )
    code = (
        f"import tests.independent._variants.{name} as v, tests.independent.toy as b;"
        "print(v.answer(), b.answer(), v.answer.__module__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["41", "42", f"tests.independent._variants.{name}.inner.core"]
    # another edit, or a changed base, is another package: no stale copy is imported
    other = materialise(
        Variant("toy", Edit("inner/core.py", "return 42", "return 40")), independent
    )
    (independent / "toy" / "inner" / "core.py").write_text(
        "def answer() -> int:\n    return 42  # changed\n"
    )
    changed = materialise(
        Variant("toy", Edit("inner/core.py", "return 42", "return 41")), independent
    )
    assert len({name, other, changed}) == 3
    # the package of the copies is made once: other runs' variants leave it as it was, since
    # a run fails when a file of the implementation it imported changes under it
    init = independent / "_variants" / "__init__.py"
    before = init.stat()
    materialise(Variant("toy", Edit("inner/core.py", "return 42", "return 39")), independent)
    assert (init.stat().st_ctime_ns, init.stat().st_mtime_ns) == (
        before.st_ctime_ns,
        before.st_mtime_ns,
    )
    assert not list((independent / "_variants").glob(".*")), "a staging folder was left behind"
