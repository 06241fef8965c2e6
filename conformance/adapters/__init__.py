"""Adapters shipped with the suite, one module per implementation."""
