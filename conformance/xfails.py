"""Expected-failures files: the requirements an implementation knowingly fails, and why.

Like array-api-tests' ``--xfails-file``, but keyed by requirement ID, in TOML::

    [ERR-AT-WAIT-1]
    reason = "eager torch.jit.fork raises the task's exception itself"

Every entry needs a reason; an ID the spec does not define is an error, so the
list cannot silently outlive a renamed requirement.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path


class XfailsError(ValueError):
    """An expected-failures file that cannot be used as written."""


def load_xfails(path: Path) -> dict[str, str]:
    """Requirement ID -> reason, from a TOML expected-failures file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise XfailsError(f"expected-failures file {path}: {exc}") from exc
    result: dict[str, str] = {}
    for req_id, entry in data.items():
        reason = entry.get("reason") if isinstance(entry, dict) else None
        if not isinstance(reason, str) or not reason.strip():
            raise XfailsError(f"expected-failures file {path}: [{req_id}] needs a reason")
        result[req_id] = " ".join(reason.split())
    return result


def check_known(xfails: Mapping[str, str], known: Iterable[str], source: str) -> None:
    """Reject entries for requirements the spec does not have."""
    unknown = sorted(set(xfails) - set(known))
    if unknown:
        raise XfailsError(f"{source} lists unknown requirements: {', '.join(unknown)}")
