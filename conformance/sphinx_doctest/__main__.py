"""``python -m conformance.sphinx_doctest [pytest options] SRCDIR``: the guarded command."""

import sys

from conformance.sphinx_doctest.guard import main

sys.exit(main())
