"""The old path of ``tracing.scope``, which ``tests/mutants`` imports from."""

from reference_impl.tracing.scope import active_scope, recording

__all__ = ["active_scope", "recording"]
