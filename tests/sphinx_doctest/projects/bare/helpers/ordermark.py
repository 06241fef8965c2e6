"""The order log helper of the "bare" project, found through ``doctest_path``."""

import os


def mark(label: str) -> None:
    """Append ``<pid>\\t<label>`` to the order log named by ``SPHINX_DOCTEST_ORDER``."""
    path = os.environ.get("SPHINX_DOCTEST_ORDER")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()}\t{label}\n")
