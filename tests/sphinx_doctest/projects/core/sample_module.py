"""A module documented by autodoc.rst.

>>> mark("module docstring")
>>> answer()
42
"""


def answer() -> int:
    """Return 42.

    >>> mark("answer docstring")
    >>> answer() + 1
    43

    .. testcode::

       mark("testcode in a docstring")
       print(answer())

    .. testoutput::

       42
    """
    return 42


def broken() -> int:
    """Return 1 (the example says otherwise).

    >>> broken()
    2
    """
    return 1
