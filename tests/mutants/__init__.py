"""Deliberately broken implementations: each differs from the reference in one way.

tests/mutants/test_mutants.py runs the conformance suite against every one of them and
checks that it fails, on the requirements the mutation breaks. Each module's
``adapter()`` is loaded as ``--impl tests.mutants.<name>:adapter``.
"""
