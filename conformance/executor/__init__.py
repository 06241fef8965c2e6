"""The executor: the process that imports the implementation and runs the spec's examples.

The pytest processes that collect, schedule and report never import the
adapter nor run an example. Each drives an executor process (handle.py) over
a channel only the two of them own (wire.py); the executor (main.py) runs the
examples with Sphinx's group semantics and answers with data. Whatever an
example does to its process - crash it, hang it, stop it, lower its recursion
limit, print undecodable text, write into its file descriptors - reaches the
harness as a failure of that example, never as a broken run.
"""
