"""The reference without its explorer: an engine whose own scheduler picks the order of
tasks. The suite must skip, by itself and with the reason, every example and probe of
the requirements that check an explorer (tests/suite/test_no_explorer.py), as
docs/profiles.rst says; the adapter declares no skips for them.
"""

from dataclasses import replace

from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference


def adapter() -> Adapter:
    return replace(reference(), name="no-explorer", explorer=None)
