"""Deliberately broken implementations: each differs from the reference in one way.

Each mutant module declares in ``CONTRACT`` (``_contract.py``) the rules its mutation
breaks and every other rule it fails, with the reason; tests/mutants/test_mutants.py
runs the conformance suite against every one of them and holds each to its contract.
Each module's ``adapter()`` is loaded as ``--impl tests.mutants.<name>:adapter``; the
helpers' names start with ``_``.
"""
