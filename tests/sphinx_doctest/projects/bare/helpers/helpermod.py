"""A module only ``doctest_path`` makes importable."""

GREETING = "hello from helpermod"
