"""Whether a cached document is still what is on disk: judged by content, not by time.

Sphinx reads a document again when its file, or a file it depends on (an
``include``, a ``literalinclude``, an autodoc module), is *newer* than the
cached read. A file replaced by another with an older modification time
(``cp -p``, ``tar x``, ``rsync -a``) looks unchanged to it, and the run would
test the cached, stale copy. So the cache also keeps each document's digest -
its source, every file Sphinx noted it depends on, and ``conf.py`` - and a
document whose digest differs from the one recorded is read again, whatever
the times say.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from sphinx.application import Sphinx

#: the file beside the cached environment that keeps the digests
DIGESTS = "source-digests.json"


class _Digester:
    """Digests of one moment; a file shared by many documents (conf.py, an included
    part) is read once."""

    def __init__(self, app: Sphinx) -> None:
        self._app = app
        self._files: dict[str, bytes] = {}
        self._conf = self._file(Path(app.confdir) / "conf.py")

    def _file(self, path: Path) -> bytes:
        key = os.fspath(path)
        found = self._files.get(key)
        if found is None:
            try:
                found = hashlib.sha256(path.read_bytes()).digest()
            except OSError:  # gone, or not readable: that too is a change
                found = b"unreadable"
            self._files[key] = found
        return found

    def document(self, docname: str) -> str:
        env = self._app.env
        digest = hashlib.sha256(self._conf)
        dependencies = sorted(os.fspath(path) for path in env.dependencies.get(docname, ()))
        for path in [os.fspath(env.doc2path(docname)), *dependencies]:
            digest.update(path.encode("utf-8", "surrogateescape") + b"\0")
            digest.update(self._file(Path(path)))
        return digest.hexdigest()

    def documents(self) -> dict[str, str]:
        return {docname: self.document(docname) for docname in sorted(self._app.env.found_docs)}


def changed_documents(app: Sphinx, folder: Path) -> set[str]:
    """The documents whose content differs from when they were read into the cache (all
    of them when no digest was recorded, or the record cannot be read)."""
    try:
        recorded = json.loads((folder / DIGESTS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = None
    if not isinstance(recorded, dict):
        return set(app.env.found_docs)
    digester = _Digester(app)
    return {
        docname
        for docname in app.env.found_docs
        if recorded.get(docname) != digester.document(docname)
    }


def record_digests(app: Sphinx, folder: Path) -> None:
    """Keep the digest of every document as read now, for the next run's check."""
    digests = _Digester(app).documents()
    (folder / DIGESTS).write_text(json.dumps(digests, sort_keys=True), encoding="utf-8")


__all__ = ["DIGESTS", "changed_documents", "record_digests"]
