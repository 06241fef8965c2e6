"""The spec model: where the spec is, its vocabulary, its requirements, expected failures."""
