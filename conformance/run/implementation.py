"""The implementation under test, as the spec's ``conf.py`` names it (``current_fw``).

It lives in the executor layer (conformance/executor/implementation.py): only
an executor process, or ``sphinx-build -b doctest``, ever binds ``fw``.
"""

from __future__ import annotations

from conformance.executor.implementation import (
    DEFAULT_IMPL,
    ENV_IMPL,
    current_fw,
    impl_name,
    select,
    selected,
)

__all__ = ["DEFAULT_IMPL", "ENV_IMPL", "current_fw", "impl_name", "select", "selected"]
