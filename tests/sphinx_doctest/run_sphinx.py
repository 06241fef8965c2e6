"""Run ``sphinx-build -b doctest -E`` with the recorder installed.

``python -m tests.sphinx_doctest.run_sphinx SRCDIR OUTDIR [extra sphinx-build args]``

The recorder (imported first) patches ``doctest.DocTestRunner``; this module also
wraps ``DocTestBuilder.test_doc`` so every event names its document. The
project's ``conf.py`` is used as it is. Exits with sphinx-build's status.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from typing import Any

from tests.sphinx_doctest import recorder


def patch_builder() -> None:
    from sphinx.ext.doctest import DocTestBuilder  # noqa: PLC0415

    original: Callable[..., bool] = DocTestBuilder.test_doc

    @functools.wraps(original)
    def test_doc(self: DocTestBuilder, docname: str, doctree: Any) -> bool:
        recorder.begin_document(docname)
        try:
            return original(self, docname, doctree)
        finally:
            recorder.begin_document(None)

    DocTestBuilder.test_doc = test_doc  # type: ignore[method-assign]


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    from sphinx.cmd.build import build_main  # noqa: PLC0415

    srcdir, outdir, *extra = argv
    patch_builder()
    return build_main(["-b", "doctest", "-E", *extra, srcdir, outdir])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
