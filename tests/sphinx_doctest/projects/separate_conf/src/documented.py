"""A module documented by autodoc_blocks.rst."""


def double(x: int) -> int:
    """Double ``x``.

    >>> mark("docstring example")
    >>> double(21)
    42
    """
    return 2 * x
