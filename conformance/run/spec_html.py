"""The installed spec as HTML, built on demand into a per-user cache, for clickable rule links.

An installed suite ships the spec's ``.rst`` sources, not its HTML, and the
spec has no published site. ``forkwait-conformance spec`` builds the HTML of
the installed spec (with Sphinx, which the suite already needs) into
``$XDG_CACHE_HOME/forkwait-spec/<version>/html`` (``~/.cache`` by default),
and every rule link of a run points there as a ``file://`` URL, which
terminals make clickable; until it is built, each link says so and names the
command. The pages are ``make docs``'s: the same configuration (conf/conf.py)
and theme (furo, a dependency of the suite). Sphinx builds incrementally:
running the command again after an upgrade or an edit only rebuilds what
changed. Without Graphviz the trace pages lack their graphs: that does not
stop the build.
"""

from __future__ import annotations

import os
import webbrowser
from pathlib import Path

from docutils import nodes

from conformance import __version__
from conformance.catalog.files import spec_conf_dir, spec_dir

#: what a rule link adds while the pages it points into are not built
NOT_BUILT = " (not built yet: forkwait-conformance spec builds it)"


class SpecBuildError(RuntimeError):
    """Sphinx could not build the spec's HTML."""


def cache_root(version: str = __version__) -> Path:
    """The per-user cache of the spec's HTML for one suite version."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "forkwait-spec" / version


def html_dir(version: str = __version__) -> Path:
    return cache_root(version) / "html"


def is_built(version: str = __version__) -> bool:
    return (html_dir(version) / "index.html").is_file()


def default_docs_url(root: Path) -> str:
    """The base of rule links for a run of the spec in ``root``: the cached HTML of the
    installed spec, or nothing (page name and anchor only) for another spec folder."""
    if root.resolve() != spec_dir():
        return ""
    return html_dir().as_uri() + "/"


def rule_url(docs_url: str, docname: str, requirement: str) -> str:
    """The link to a requirement's box on its page (the anchor its directive sets)."""
    return f"{docs_url}{docname}.html#{nodes.make_id(f'req-{requirement}')}"


def rule_link(docs_url: str, docname: str, requirement: str) -> str:
    """The rule's URL as a run prints it: with how to build the page, while the link
    points into the per-user cache before the pages are built there."""
    cached = docs_url == html_dir().as_uri() + "/"
    return rule_url(docs_url, docname, requirement) + (
        NOT_BUILT if cached and not is_built() else ""
    )


def build(*, quiet: bool = True) -> Path:
    """Build (or bring up to date) the installed spec's HTML; return its index page."""
    from sphinx.cmd.build import build_main  # noqa: PLC0415 - only this command needs it

    out = html_dir()
    args = ["-b", "html", "-c", str(spec_conf_dir()), "-d", str(cache_root() / "doctrees")]
    status = build_main([*args, *(["-q"] if quiet else []), str(spec_dir()), str(out)])
    if status != 0:
        raise SpecBuildError(f"sphinx-build could not build the spec's HTML into {out}")
    return out / "index.html"


def open_in_browser(page: Path) -> bool:
    """Open ``page`` in the user's browser; False when no browser is available."""
    return webbrowser.open(page.as_uri())
