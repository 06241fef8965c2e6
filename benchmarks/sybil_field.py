"""The ``>>>``-only field of doctest_vs_sphinx.py: the engine against stock sybil, same items.

A generated project of ``documents`` x ``blocks`` ``.. doctest::`` blocks of one
``>>>`` example each is what stock sybil (10.1: its ReST ``DocTestParser``, one
``SybilItem`` per example) and this engine both collect as the same items. Each
contender runs as a whole process, several rounds, interleaved; the engine's
ratio to stock sybil is taken *within* each round (so a neighbour slowing one
round slows both sides of its ratio), and its median and range are printed.
Stock sybil runs on the very files of the project, through a folder of its own
(its conftest beside a link to the source folder), so no other contender sees
its conftest.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

CONF = """\
project = "benchmark"
extensions = ["sphinx.ext.doctest"]
"""

STOCK_CONFTEST = """\
from sybil import Sybil
from sybil.parsers.rest import DocTestParser

pytest_collect_file = Sybil(parsers=[DocTestParser()], patterns=["*.rst"]).pytest()
"""

#: stock sybil's conftest, plus what no runner asking Sphinx in-process can skip: Sphinx
#: imported, its application made over the project (its environment kept in ``doctrees``
#: between runs, or read afresh), its loggers in the process; the run is stock sybil's
SPHINX_LOADED_CONFTEST = (
    STOCK_CONFTEST
    + """
import io
import pickle
from sphinx.application import ENV_PICKLE_FILENAME, Sphinx
from sphinx.util.docutils import docutils_namespace, patch_docutils

with patch_docutils({source!r}), docutils_namespace():
    _app = Sphinx({source!r}, {source!r}, {out!r}, {doctrees!r}, "doctest", status=None,
                  warning=io.StringIO(), freshenv={fresh!r})
    if _app.builder.read():  # kept for the next run, as the engine keeps it
        with open(_app.doctreedir / ENV_PICKLE_FILENAME, "wb") as _file:
            pickle.dump(_app.env, _file, pickle.HIGHEST_PROTOCOL)
"""
)

#: contender -> at most this ratio to stock sybil, CPU, same round
TARGETS = {
    "engine -p, fresh": 1.3,
    "engine -p, Sphinx environment cached": 1.1,
    "engine sphinx_sybil, fresh": 1.3,
    "engine sphinx_sybil, cached": 1.1,
}
STOCK = "stock sybil 10.1 (DocTestParser)"


def make_doctest_project(root: Path, documents: int = 20, blocks: int = 100) -> Path:
    """Write ``documents`` documents of ``blocks`` one-example ``doctest`` blocks; return
    the source folder (it holds ``conf.py``). Every example passes."""
    source = root / "src"
    source.mkdir(parents=True)
    (source / "conf.py").write_text(CONF, encoding="utf-8")
    names = [f"doc{number:03d}" for number in range(documents)]
    toctree = "\n".join(f"   {name}" for name in names)
    (source / "index.rst").write_text(
        f"Benchmark\n=========\n\n.. toctree::\n\n{toctree}\n", encoding="utf-8"
    )
    for name in names:
        parts = [f"{name}\n{'=' * len(name)}\n"]
        parts += [f".. doctest::\n\n   >>> {n} + 1\n   {n + 1}\n" for n in range(blocks)]
        (source / f"{name}.rst").write_text("\n".join(parts), encoding="utf-8")
    return source


def stock_sybil(source: Path, options: list[str]) -> list[str]:
    """Stock sybil over the project's files: its conftest in a folder of its own."""
    folder = source.parent / "stock-sybil"
    if not folder.is_dir():
        folder.mkdir()
        (folder / "conftest.py").write_text(STOCK_CONFTEST, encoding="utf-8")
        (folder / "docs").symlink_to(source, target_is_directory=True)
    return [
        sys.executable, "-m", "pytest", *options, "--rootdir", str(folder),
        str(folder / "docs"), "-q",
    ]  # fmt: skip


def sphinx_loaded(source: Path, options: list[str], *, fresh: bool) -> list[str]:
    """Stock sybil with Sphinx's application made (and the project read) in its process:
    a bound on any runner that asks Sphinx in-process, not a runner."""
    name = "sphinx-fresh" if fresh else "sphinx-kept"
    folder = source.parent / f"stock-sybil-{name}"
    if not folder.is_dir():
        folder.mkdir()
        scratch = source.parent / f"{name}-build"
        text = SPHINX_LOADED_CONFTEST.format(
            source=str(source), out=str(scratch / "out"), doctrees=str(scratch / "doctrees"),
            fresh=fresh,
        )  # fmt: skip
        (folder / "conftest.py").write_text(text, encoding="utf-8")
        (folder / "docs").symlink_to(source, target_is_directory=True)
    return [
        sys.executable, "-m", "pytest", *options, "--rootdir", str(folder),
        str(folder / "docs"), "-q",
    ]  # fmt: skip


class Timed(Protocol):
    """A contender of doctest_vs_sphinx.py: its name and CPU seconds, one per round."""

    name: str
    cpu: list[float]


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):5.2f} ({min(values):.2f}-{max(values):.2f})"


def ratio_table(field: Sequence[Timed], baseline: str) -> list[str]:
    """CPU seconds (median, range) and the per-round ratios to ``baseline`` and to stock
    sybil (median, range), with the targets of :data:`TARGETS`."""
    by_name = {contender.name: contender for contender in field}
    stock, base = by_name.get(STOCK), by_name.get(baseline)
    lines = [f"{'contender (CPU seconds)':40} {'median (range)':>17} {'x sphinx-build':>17} "
             f"{'x stock sybil':>17}"]  # fmt: skip
    for contender in field:
        if not contender.cpu:
            lines.append(f"{contender.name:40} failed (see below)")
            continue
        cells = [f"{contender.name:40} {_spread(contender.cpu):>17}"]
        for peer in (base, stock):
            rounds = list(zip(contender.cpu, peer.cpu, strict=False)) if peer else []
            cells.append(f"{_spread([a / b for a, b in rounds]):>17}" if rounds else f"{'':>17}")
        lines.append(" ".join(cells))
        target = TARGETS.get(contender.name)
        if target is not None and stock is not None and stock.cpu:
            ratio = statistics.median(a / b for a, b in zip(contender.cpu, stock.cpu, strict=False))
            verdict = "met" if ratio <= target else "NOT met"
            lines.append(f"{'':40} target <= {target}x stock sybil (median): {verdict}")
    return lines


__all__ = [
    "STOCK",
    "TARGETS",
    "make_doctest_project",
    "ratio_table",
    "sphinx_loaded",
    "stock_sybil",
]
