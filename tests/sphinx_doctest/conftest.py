"""The fixture projects are Sphinx sources, not tests: pytest must not collect them."""

collect_ignore_glob = ["projects/*"]
