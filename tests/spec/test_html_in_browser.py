"""The spec's HTML as a reader sees it: pages laid out by headless Chromium, at two widths.

Valid HTML can still be hard to read: a table's last column cut off, a graph
shrunk to half its size. Each page is opened at 1400 px (furo's full layout)
and 1000 px (no table of contents beside it) and fails on content wider than
its column, an image that did not load, or an SVG drawn below 80 % of its
natural size. The checks themselves are tested on a page made to break them.

Where Chromium or Playwright is missing the tests skip, naming the command that
installs them; ``FORKWAIT_REQUIRE_BROWSER=1`` (CI sets it) turns that skip into
a failure, so that CI cannot pass without looking.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

from tests.paths import REPO
from tests.spec import browser_pages

if TYPE_CHECKING:
    from playwright.sync_api import Browser

#: the pages the issue looked at: the matrix, "All requirements", and the three with pictures
#: or wide tables of their own; and the clause inventory, a page of tables
PAGES = [
    "matrix", "requirements", "trace", "contributing", "validating", "coverage", "wait",
    "clause-inventory",
]  # fmt: skip
WIDTHS = [1400, 1000]


def _cannot_look(reason: str) -> NoReturn:
    """Skip with ``reason``; fail instead where the browser test must run (CI)."""
    if os.environ.get("FORKWAIT_REQUIRE_BROWSER"):
        pytest.fail(f"FORKWAIT_REQUIRE_BROWSER is set, but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, once per session."""
    reason = browser_pages.missing_browser()
    if reason is not None:
        _cannot_look(reason)
    with browser_pages.chromium() as chromium:
        yield chromium


def _fresh_build() -> Path | None:
    """``build/html`` when ``make docs`` made it after the last change to its sources."""
    index = REPO / "build" / "html" / "index.html"
    if not index.exists():
        return None
    sources = [REPO / "docs", REPO / "conf", REPO / "conformance"]
    newest = max(p.stat().st_mtime for root in sources for p in root.rglob("*") if p.is_file())
    return index.parent if index.stat().st_mtime > newest else None


@pytest.fixture(scope="session")
def site(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The spec's HTML served on 127.0.0.1: ``make docs``'s if fresh, else built once here."""
    html = _fresh_build()
    if html is None:
        if shutil.which("dot") is None:
            _cannot_look("the docs need Graphviz's dot: `make docs-tools` says how to install it")
        html = tmp_path_factory.mktemp("html")
        command = [sys.executable, "-m", "sphinx", "-q", "-E", "-c", "conf", "docs", str(html)]
        built = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
        assert built.returncode == 0, built.stderr
    with browser_pages.served(html) as base:
        yield base


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_the_page_fits_its_column_and_shows_its_pictures(
    browser: Browser, site: str, name: str, width: int, tmp_path: Path
) -> None:
    shot = tmp_path / f"{name}-{width}.png"
    page = browser_pages.open_page(browser, f"{site}{name}.html", width)
    try:
        problems = browser_pages.layout_problems(page)
        if problems:  # what the reader saw, for whoever reads the failure
            page.screenshot(path=str(shot), full_page=True)
    finally:
        page.close()
    assert not problems, f"{name}.html at {width}px (screenshot: {shot}):\n" + "\n".join(problems)


BROKEN = """<!doctype html><html><body style="margin:0"><article role="main" style="width:400px">
<section id="wide"><div style="overflow-x:auto"><table><tr>
  <td style="white-space:nowrap">a cell far too wide for this four hundred pixel column, cut</td>
</tr></table></div></section>
<section id="spill"><p style="width:600px">a paragraph that runs past the column</p></section>
<section id="missing"><img src="nowhere.png" alt="gone"></section>
<section id="small"><svg width="1000" height="10" style="width:300px"></svg></section>
<section id="fine"><svg width="200" height="10"></svg><p>text that fits</p></section>
</article></body></html>"""


def test_the_checks_find_a_clipped_table_a_spill_a_lost_image_and_a_shrunk_svg(
    browser: Browser, tmp_path: Path
) -> None:
    (tmp_path / "broken.html").write_text(BROKEN, encoding="utf-8")
    with browser_pages.served(tmp_path) as base:
        page = browser_pages.open_page(browser, f"{base}broken.html", 1000)
        try:
            problems = browser_pages.layout_problems(page)
        finally:
            page.close()
    by_section = {line.split(" in #")[1].split(":")[0]: line for line in problems}
    assert sorted(by_section) == ["missing", "small", "spill", "wide"], problems
    assert len(problems) == 4, problems  # one line per fault: not one per cell of a wide table
    assert by_section["wide"].startswith("clipped: div")
    assert by_section["spill"].startswith("past the column: p")
    assert by_section["missing"] == "image not loaded: img in #missing: nowhere.png"
    assert by_section["small"] == "svg shrunk: svg in #small: drawn at 30% of its 1000px"


#: every place a requirement ID is shown: a box's title, a :req: link (text, tables)
_WRAPPED_IDS = """() => [...document.querySelectorAll('.forkwait-id, code.std-req')]
  .filter((element) => element.getClientRects().length > 1)
  .map((element) => element.textContent)"""


@pytest.mark.parametrize("width", [1000, 400])
def test_a_requirement_id_never_wraps(browser: Browser, site: str, width: int) -> None:
    for name in ("fork", "coverage", "matrix", "requirements"):
        page = browser_pages.open_page(browser, f"{site}{name}.html", width)
        try:
            wrapped = page.evaluate(_WRAPPED_IDS)
            shown = page.evaluate("document.querySelectorAll('.forkwait-id, code.std-req').length")
        finally:
            page.close()
        assert shown > 0, f"{name}.html shows no requirement ID: the selector is stale"
        assert not wrapped, f"{name}.html at {width}px wraps {wrapped[:5]}"
