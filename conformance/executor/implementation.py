"""The implementation under test in this process: an executor, or ``sphinx-build``.

The spec's ``doctest_global_setup`` (``conf/conf.py``) binds ``fw`` with
:func:`current_fw`, so both runners bind it the same way: to the adapter the
executor loaded, or, under ``sphinx-build -b doctest``, to ``$FORKWAIT_IMPL``
(default ``reference``).
"""

from __future__ import annotations

import os
from typing import Any

from conformance.adapter import Adapter, load_adapter

ENV_IMPL = "FORKWAIT_IMPL"
DEFAULT_IMPL = "reference"

_selected: Adapter | None = None


def select(adapter: Adapter) -> None:
    """Make ``adapter`` the implementation every example of this process runs against."""
    global _selected
    _selected = adapter


def selected() -> Adapter:
    """The selected adapter; loaded from ``$FORKWAIT_IMPL`` if none was selected."""
    global _selected
    if _selected is None:
        _selected = load_adapter(os.environ.get(ENV_IMPL) or DEFAULT_IMPL)
    return _selected


def current_fw() -> Any:
    """The ``fw`` object examples call."""
    return selected().fw
