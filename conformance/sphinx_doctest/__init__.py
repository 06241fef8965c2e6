"""Run any Sphinx project's doctests under pytest, exactly as ``sphinx-build -b doctest``.

``python -m pytest -p conformance.sphinx_doctest SRCDIR`` (SRCDIR holds
``conf.py``, or name it with ``--sphinx-confdir``) collects one pytest item per
test that Sphinx's doctest builder would run, and gives each the same outcome:
Sphinx parses the documents, and each group's setup, tests and cleanup run
through Sphinx's own runner. Nothing here knows of the forkwait spec.

The data flow: project.py (Sphinx reads the project) -> model.py (groups, as
``test_doc`` builds them) -> items.py (one pytest item per test) -> runner.py
(``test_group``'s steps, one test at a time) -> failures.py (what a reader sees).
"""

pytest_plugins = ["conformance.sphinx_doctest.plugin"]
