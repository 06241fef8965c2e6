"""Look at the built HTML as a reader does: served on 127.0.0.1 and laid out by Chromium.

Why a browser: Sphinx's HTML can be valid and still hard to read (a table's last
column clipped, a graph shrunk to half its size); only a real layout engine shows
that. Debian's ``chromium`` is driven by Playwright with ``executable_path``, so
Playwright never downloads a browser of its own. :func:`layout_problems` runs one
script in the page and returns what a reader would trip over, one line each.
"""

from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

#: Debian's package (``apt-get install chromium``); ``make browser-tools`` checks for it
CHROMIUM = "/usr/bin/chromium"
#: headless, and quiet on a machine with no network but the loopback
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
#: an SVG drawn below this share of its natural width is too small to read
MIN_SVG_SCALE = 0.8


def missing_browser() -> str | None:
    """Why the browser can't run here (a sentence naming the install), or None when it can."""
    if shutil.which(CHROMIUM) is None:
        return f"{CHROMIUM} not found: install Debian's chromium (sudo apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401, PLC0415
    except ImportError:
        return "Playwright for Python is not installed: `make browser-tools` installs it"
    return None


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without a log line per request among pytest's output."""

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing: a missing file shows up in the page's own checks."""


@contextmanager
def served(root: Path) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (a free port) and yield its base URL; stop on exit."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless; Playwright gives it a fresh profile and removes it after."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


#: the script run in each page (a file of its own, so that it reads as JavaScript)
_MEASURE = (Path(__file__).parent / "layout_check.js").read_text(encoding="utf-8")


def open_page(browser: Browser, url: str, width: int) -> Page:
    """``url`` in a new page ``width`` px wide, once it and its images have loaded."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(url, wait_until="load")
    return page


def layout_problems(page: Page) -> list[str]:
    """What a reader would trip over on ``page``, one line each (empty when none)."""
    found: list[list[str]] = page.evaluate(_MEASURE, MIN_SVG_SCALE)
    return [f"{kind}: {element}: {detail}" for kind, element, detail in found]
