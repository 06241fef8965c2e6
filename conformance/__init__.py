"""forkwait conformance suite: runs the spec's examples against an implementation."""

__version__ = "0.1.0"
