"""A document's test groups as the harness hands them to its executor.

The harness has read the project with Sphinx to collect the tests; the executor
that runs them receives each document's groups from it, once per executor,
instead of reading the project a second time: a Sphinx application costs a
fresh process more than the rest of its start-up together. What travels is
Sphinx's own ``TestGroup`` and ``TestCode`` objects (``model.Block``), pickled
without their docutils nodes, which only the harness uses (to place items and
failures), and the doctest option flags of the project's configuration.

The pickle travels inside a JSON frame (wire.py) as strings no longer than
the frame's cap on one string, so that capping never cuts one.
"""

from __future__ import annotations

import base64
import io
import pickle
from typing import Any

from docutils import nodes
from sphinx.ext.doctest import TestGroup

from conformance.executor.wire import MAX_FRAME, STRING_CAP

#: the persistent id a docutils node is pickled as (and read back as None)
_NODE = "docutils node"
#: the most text a document's groups may take: half a frame, the rest for the request
_MOST = MAX_FRAME // 2


class _WithoutNodes(pickle.Pickler):
    def persistent_id(self, obj: Any) -> str | None:
        return _NODE if isinstance(obj, nodes.Node) else None


class _NodesAsNone(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> None:
        if pid != _NODE:
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")


def pack(docname: str, groups: dict[str, TestGroup], optionflags: int) -> list[str]:
    """The document's groups and option flags as strings for a request.

    Raises:
        ValueError: the document's tests take more than a request can carry.
    """
    buffer = io.BytesIO()
    _WithoutNodes(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((groups, optionflags))
    text = base64.b64encode(buffer.getvalue()).decode("ascii")
    if len(text) > _MOST:
        raise ValueError(
            f"the tests of document {docname!r} take {len(text)} bytes as data, more than "
            f"the {_MOST} an executor's request can carry: split the document"
        )
    return [text[i : i + STRING_CAP] for i in range(0, len(text), STRING_CAP)]


def unpack(chunks: list[str]) -> tuple[dict[str, TestGroup], int]:
    """What :func:`pack` made: (groups, optionflags)."""
    data = base64.b64decode("".join(chunks).encode("ascii"), validate=True)
    groups, optionflags = _NodesAsNone(io.BytesIO(data)).load()
    return groups, int(optionflags)


__all__ = ["pack", "unpack"]
