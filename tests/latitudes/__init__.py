"""Implementations that are right, in ways the suite must accept: the guards against false failures.

``minimal_surface`` is the reference behind objects that offer exactly what the
spec states; every other module is a *latitude variant*: the reference taking
one latitude the text grants (a MAY, a SHOULD, something left open) the other
way. tests/latitudes/test_latitudes.py runs the suite against each, as
``--impl tests.latitudes.<name>:adapter``, and checks that each passes every
MUST: an example that fails one leans on something no sentence states.
"""
