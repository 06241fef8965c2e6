"""The pytest run: the spec's examples as items against a chosen implementation, each isolated."""
