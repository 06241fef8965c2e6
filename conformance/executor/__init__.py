"""The executor: the process that imports the implementation and runs the spec's examples.

The pytest processes that collect, schedule and report never import the
adapter nor run an example. Each drives an executor process (handle.py) over
a channel only the two of them own (wire.py); the executor (main.py) runs the
examples with Sphinx's group semantics and answers with data, each answer
naming the request it answers. Whatever an example does to its process -
crash it, hang it, stop it, lower its recursion limit, print undecodable
text or a flood, write into, close or replace its channel, fork a child that
carries on - reaches the harness as a failure of that example, never as a
broken run (docs/limits.rst says against what this holds, and what not).
"""
