"""``.. adapter-source:: MODULE [FILE]``: an adapter's real source, shown in the docs.

docs/validating.rst teaches writing an adapter from the threads adapter; showing
the file itself (found by importing the module, so it works from a checkout and
from an installed spec alike, where a ``literalinclude`` path would not) means
the worked example cannot drift from the code the suite runs. With ``FILE`` the
directive shows a file beside the module instead (its expected-failures TOML).
``.. profile-needs::`` tabulates what each profile asks of ``fw``, from the
spec's vocabulary (conformance/catalog/vocabulary.py).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conformance.catalog.vocabulary import PROFILE_NAMES, PROFILES
from conformance.sphinx_ext.tables import row


def source_path(module_name: str, beside: str | None = None) -> Path:
    """The file of ``module_name``, or the file called ``beside`` in its folder."""
    module = importlib.import_module(module_name)
    if module.__file__ is None:
        raise ValueError(f"module {module_name} has no source file")
    path = Path(module.__file__)
    return path.with_name(beside) if beside else path


class AdapterSourceDirective(SphinxDirective):
    required_arguments = 1
    optional_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        beside = self.arguments[1] if len(self.arguments) > 1 else None
        try:
            path = source_path(self.arguments[0], beside)
            text = path.read_text(encoding="utf-8")
        except (ImportError, ValueError, OSError) as exc:
            raise self.error(f"adapter-source {' '.join(self.arguments)}: {exc}") from exc
        self.env.note_dependency(str(path))
        block = nodes.literal_block(text, text, language="toml" if beside else "python")
        caption = self.options.get("caption") or (
            f"{self.arguments[0].replace('.', '/')}.py" if beside is None else beside
        )
        # a class of its own: the project's files run to 100 columns (forkwait.css fits them)
        classes = ["literal-block-wrapper", "forkwait-adapter-source"]
        container = nodes.container("", literal_block=True, classes=classes)
        container += nodes.caption(caption, "", nodes.Text(caption))
        container += block
        return [container]


class ProfileNeedsDirective(SphinxDirective):
    """``.. profile-needs::``: per profile, what it covers and the ``fw`` names it uses."""

    def run(self) -> list[nodes.Node]:
        table = nodes.table(classes=["forkwait-profile-needs"])
        group = nodes.tgroup(cols=3)
        table += group
        group += [nodes.colspec(colwidth=w) for w in (10, 45, 45)]
        head = nodes.thead()
        head += row("profile", "what it covers", "the fw names its examples use")
        body = nodes.tbody()
        for profile, about in PROFILES.items():
            body += row(profile, about, ", ".join(PROFILE_NAMES[profile]))
        group += [head, body]
        return [table]


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("adapter-source", AdapterSourceDirective)
    app.add_directive("profile-needs", ProfileNeedsDirective)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
