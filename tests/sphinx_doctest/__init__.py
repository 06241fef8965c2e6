"""Differential tests: ``sphinx-build -b doctest`` against ``conformance.sphinx_doctest``."""
