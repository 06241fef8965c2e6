"""Mutants of the independent implementations: a base package of tests/independent/ and one edit.

Most mutants here change the reference by replacing an ``fw`` name (``_base.mutant``). That
fits every imagined bug to the reference's structure. A *variant* instead changes the source
of an implementation written from the docs alone (``tests/independent/<base>/``) by a few
exact text edits, the way a bug would really sit in it, so that a mutant module holds its bug
and nothing else::

    VARIANT = Variant(
        "threadper",
        Edit("future.py", old="with self._lock:\\n            self._callbacks.append(fn)",
             new="self._callbacks.append(fn)"),
    )
    adapter = VARIANT.adapter

Each ``old`` must occur exactly once in its file, so an edit that no longer applies (the base
changed under it) fails loudly, naming the file and the text, instead of testing the base.

The edited package is written to ``tests/independent/_variants/<base>_<digest>/`` (ignored by
git; the digest covers the edits and the base's sources, so a changed base or edit is a new
folder and a stale copy is never imported). A folder on disk, not an import hook, because the
spec's examples pickle ``fw``'s names by module name into child interpreters, which import them
through ``PYTHONPATH`` like any module of the checkout. The base's absolute imports of itself
(``tests.independent.<base>``) are rewritten to the variant's package; relative ones need no
change.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from conformance.adapter import Adapter

INDEPENDENT = Path(__file__).resolve().parent.parent / "independent"
PACKAGE = "tests.independent"
#: where edited copies are written: a package of tests/independent/, ignored by git
VARIANTS = "_variants"


class EditError(ValueError):
    """An edit that does not apply to its base exactly once."""


@dataclass(frozen=True)
class Edit:
    """Replace ``old``, which must occur exactly once in the base's ``file``, by ``new``."""

    file: str
    old: str
    new: str


@dataclass(frozen=True)
class Variant:
    """An independent implementation (``base``, a package of tests/independent/) with edits."""

    base: str
    edits: tuple[Edit, ...]

    def __init__(self, base: str, *edits: Edit) -> None:
        if not edits:
            raise EditError(f"a variant of {base} needs at least one edit")
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "edits", edits)

    def adapter(self) -> Adapter:
        """The edited package's adapter, renamed so that reports say which variant ran."""
        module = importlib.import_module(f"{PACKAGE}.{VARIANTS}.{materialise(self)}")
        base: Adapter = module.adapter()
        return Adapter(
            name=f"variant-of-{self.base}",
            version=base.version,
            fw=base.fw,
            profiles=base.profiles,
            explorer=base.explorer,
        )


def edited_sources(variant: Variant, root: Path = INDEPENDENT) -> dict[Path, str]:
    """The base package's ``.py`` files (relative path -> text) with the variant's edits made."""
    folder = root / variant.base
    if not (folder / "__init__.py").is_file():
        raise EditError(f"no independent implementation {variant.base!r}: {folder} is no package")
    sources = {
        path.relative_to(folder): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*.py"))
        if "__pycache__" not in path.parts
    }
    for edit in variant.edits:
        text = sources.get(Path(edit.file))
        if text is None:
            raise EditError(f"{variant.base}/{edit.file}: no such file of the base")
        count = text.count(edit.old)
        if count != 1:
            raise EditError(
                f"{variant.base}/{edit.file}: the edit's old text occurs {count} times, not once:"
                f"\n{edit.old}"
            )
        sources[Path(edit.file)] = text.replace(edit.old, edit.new)
    return sources


def materialise(variant: Variant, root: Path = INDEPENDENT) -> str:
    """Write the edited package under ``root/_variants`` (once) and return its module name."""
    sources = edited_sources(variant, root)
    digest = hashlib.sha256(
        b"".join(
            str(path).encode() + b"\0" + text.encode() + b"\0"
            for path, text in sorted(sources.items())
        )
    ).hexdigest()[:16]
    name = f"{variant.base}_{digest}"
    variants = root / VARIANTS
    target = variants / name
    if target.is_dir():
        return name
    variants.mkdir(exist_ok=True)
    # made once and never touched again: a run checks that the files of the implementation
    # it imported do not change under it, and other runs build their variants meanwhile
    with contextlib.suppress(FileExistsError):
        os.close(os.open(variants / "__init__.py", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    # several executors may build the same variant at once: each writes a folder of its own
    # and renames it into place; the first rename wins and the others drop theirs
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=variants))
    own = f"{PACKAGE}.{variant.base}"
    for path, text in sources.items():
        out = staging / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text.replace(own, f"{PACKAGE}.{VARIANTS}.{name}"), encoding="utf-8")
    try:
        os.rename(staging, target)
    except OSError:
        if not target.is_dir():
            raise
        shutil.rmtree(staging, ignore_errors=True)
    return name


__all__ = ["Edit", "EditError", "Variant", "edited_sources", "materialise"]
