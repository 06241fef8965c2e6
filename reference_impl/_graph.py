"""The old path of ``tracing.graph``, which ``tests/mutants`` imports ``Graph`` from."""

from reference_impl.tracing.graph import Graph

__all__ = ["Graph"]
