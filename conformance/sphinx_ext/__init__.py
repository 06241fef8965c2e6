"""Sphinx extensions that render the spec's HTML: requirement boxes, blocks, matrix, figures."""
