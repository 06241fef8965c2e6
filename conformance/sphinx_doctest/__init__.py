"""Run any Sphinx project's doctests under pytest, exactly as ``sphinx-build -b doctest``.

``python -m pytest -p conformance.sphinx_doctest SRCDIR`` (SRCDIR holds
``conf.py``, or name its folder with ``--sphinx-confdir``) collects one pytest
item per test that Sphinx's doctest builder would run, and gives each the same
outcome: Sphinx parses the documents, and each group's setup, tests and
cleanup run through Sphinx's own runner. Nothing here knows of the forkwait
spec; ``conformance.run.plugin`` builds on it through hooks.py.

The data flow: project.py (Sphinx reads the project) -> model.py (each
document's groups, as ``test_doc`` builds them) -> specs.py and document.py
(a sybil ``Document`` type: one region per block, one example per test, in
Sphinx's order) -> evaluators.py and document_run.py (``test_group``'s steps,
one test at a time, through runners.py and compiling.py) -> failures.py (what a
reader sees). Every test is a sybil ``SybilItem``: entry.py builds the
``sybil.Sybil`` (``sphinx_sybil`` for a project's conftest), collectors.py the
``-p`` route's collectors, plugin.py the hooks that give sybil's items
Sphinx's setup, cleanup and failure semantics. scheduling.py keeps a document
on one pytest-xdist worker and survives workers that die. guard.py is
``python -m conformance.sphinx_doctest``: pytest run as a child, whose exit
status cannot say 0 when a test ended the process before the run's end.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.sphinx_doctest.entry import sphinx_sybil

pytest_plugins = ["conformance.sphinx_doctest.plugin"]


def __getattr__(name: str) -> Any:
    """``sphinx_sybil`` on first use: ``python -m conformance.sphinx_doctest`` (guard.py)
    only waits for its pytest, and must not import Sphinx and sybil to do so."""
    if name == "sphinx_sybil":
        from conformance.sphinx_doctest.entry import sphinx_sybil  # noqa: PLC0415

        return sphinx_sybil
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["sphinx_sybil"]
