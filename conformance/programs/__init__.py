"""Generated fork/wait programs, checked against the meaning the spec gives them.

A probe of the spec calls :func:`conformance.programs.check.check_programs`
with ``fw``: hypothesis draws trees of tasks with keyword arguments,
exceptions, un-waited forks and nested scripted calls (shapes.py), renders
each as source (source.py), and runs it under ``fw`` against its sequential
meaning (sequential.py, check.py). It imports nothing else of the project:
examples run it wherever they run. This package imports nothing on import
(the harness reads seed.py without loading hypothesis).
"""
