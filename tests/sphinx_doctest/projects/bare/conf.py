"""Fixture project "bare": no global setup or cleanup, and other config values.

``doctest_default_flags = 0`` (ELLIPSIS, IGNORE_EXCEPTION_DETAIL and
DONT_ACCEPT_TRUE_FOR_1 all off), ``doctest_test_doctest_blocks = ""`` (plain
">>>" paragraphs are not tests), ``doctest_show_successes = False``, and
``doctest_path`` naming helpers/, where ``ordermark.mark`` (the order log
helper) and ``helpermod`` live: documents import ``mark`` in a "*" testsetup.
"""

import os

HERE = os.path.dirname(os.path.abspath(__file__))

project = "bare"
extensions = ["sphinx.ext.doctest"]

doctest_path = [os.path.join(HERE, "helpers")]
doctest_default_flags = 0
doctest_test_doctest_blocks = ""
doctest_show_successes = False
