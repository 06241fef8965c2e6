"""Fixture Sphinx projects (each folder is a source dir with its ``conf.py``)."""
