"""The implementation under test in this process: an executor, or ``sphinx-build``.

The spec's ``doctest_global_setup`` (``conf/conf.py``) binds ``fw`` with
:func:`current_fw`, so both runners bind it the same way: to the adapter the
executor loaded, or, under ``sphinx-build -b doctest``, to ``$FORKWAIT_IMPL``
(default ``reference``).
"""

from __future__ import annotations

import os
from typing import Any

from conformance.adapter import Adapter, AdapterError, load_adapter

ENV_IMPL = "FORKWAIT_IMPL"
DEFAULT_IMPL = "reference"

_selected: Adapter | None = None


def select(adapter: Adapter) -> None:
    """Make ``adapter`` the implementation every example of this process runs against."""
    global _selected
    _selected = adapter


def impl_name(given: str | None = None) -> str:
    """The implementation a run names: ``given`` (``--impl``), else ``$FORKWAIT_IMPL``,
    else the reference. The variable set but empty is refused: it is how an unset CI
    variable arrives, and reading it as "not set" would test the reference instead."""
    if given:
        return given
    named = os.environ.get(ENV_IMPL)
    if named is None:
        return DEFAULT_IMPL
    if not named.strip():
        raise AdapterError(
            f"${ENV_IMPL} is set but empty: name an implementation in it, or unset it "
            f"to run {DEFAULT_IMPL!r}"
        )
    return named


def selected() -> Adapter:
    """The selected adapter; loaded from ``$FORKWAIT_IMPL`` if none was selected."""
    global _selected
    if _selected is None:
        _selected = load_adapter(impl_name())
    return _selected


def current_fw() -> Any:
    """The ``fw`` object examples call."""
    return selected().fw
