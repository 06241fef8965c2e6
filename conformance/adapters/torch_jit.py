"""The adapter for PyTorch's ``torch.jit`` (``--impl torch``; needs the ``torch`` extra).

``fw.fork``, ``fw.wait``, ``fw.Future`` and ``fw.ignore`` are torch's own
objects, not wrappers: TorchScript recognises them by identity when it
compiles ``fw.fork(...)`` inside a scripted function. torch's
DeprecationWarnings are silenced for the adapter's examples only, through the
adapter's warning filters, never for the whole process.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from conformance.adapter import Adapter, fw_from
from conformance.catalog.expectations import load_entries

XFAILS_FILE = Path(__file__).with_name("torch_xfails.toml")
SKIPS_FILE = Path(__file__).with_name("torch_skips.toml")

#: pytest ``filterwarnings`` entries applied to every example of this adapter
WARNING_FILTERS = (
    r"ignore:`torch\.jit\.\w+` is deprecated:DeprecationWarning",
    r"ignore:.*torch\.jit\.\w+.* is deprecated:DeprecationWarning",
    "ignore:Failed to initialize NumPy:UserWarning",
)


class GraphNode(NamedTuple):
    """The neutral node view of the spec (see ``reference_impl.GraphNode``)."""

    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    blocks: tuple[tuple[GraphNode, ...], ...]


_KINDS = {"prim::fork": "fork", "aten::wait": "wait", "prim::Constant": "constant"}


def _normalise(node: Any) -> GraphNode:
    kind: str = node.kind()
    blocks: tuple[tuple[GraphNode, ...], ...] = ()
    if kind == "prim::fork":
        # the forked body is the node attribute "Subgraph", not a block
        blocks = (tuple(_nodes(node.g("Subgraph").nodes())),)
    return GraphNode(
        _KINDS.get(kind, kind.rsplit("::", maxsplit=1)[-1]),
        tuple(v.debugName() for v in node.inputs()),
        tuple(v.debugName() for v in node.outputs()),
        blocks,
    )


def _nodes(nodes: Any) -> Iterator[GraphNode]:
    return (_normalise(node) for node in nodes)


def graph_nodes(traced: Any) -> list[GraphNode]:
    """Top-level nodes of a traced (or scripted) function's graph, normalised."""
    return list(_nodes(traced.graph.nodes()))


class _Quiet:
    """A torch.jit entry point used from Python only, called without its DeprecationWarning.

    An instance, not a closure, so that it pickles (by the entry point's name): the
    examples of LIFECYCLE-EXIT-1 hand ``fw`` to a new interpreter by pickle.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.__name__ = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        import torch  # noqa: PLC0415

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return getattr(torch.jit, self.name)(*args, **kwargs)


def _trace(func: Callable[..., Any], example_inputs: Any) -> Any:
    import torch  # noqa: PLC0415

    # check_trace=True would run the Python body three times (side effects triple)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return torch.jit.trace(func, example_inputs, check_trace=False)


def adapter() -> Adapter:
    """Build the torch.jit adapter (imports torch only when chosen)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
        import torch  # noqa: PLC0415

    fw = fw_from(
        {
            "fork": torch.jit.fork,
            "wait": torch.jit.wait,
            "Future": torch.jit.Future,
            "ignore": torch.jit.ignore,
            "Module": torch.nn.Module,
            "ModuleList": torch.nn.ModuleList,
            "script": _Quiet("script"),
            "trace": _trace,
            "tensor": torch.tensor,
            "graph_nodes": graph_nodes,
            "collect_all": torch.futures.collect_all,
            "wait_all": torch.futures.wait_all,
        },
        "torch.jit, as the forkwait spec's examples see it",
    )
    return Adapter(
        name="torch",
        version=torch.__version__,
        fw=fw,
        profiles=frozenset({"core", "async", "trace", "futures"}),
        expected_failures=load_entries(XFAILS_FILE),
        skips=load_entries(SKIPS_FILE, "skips"),
        warning_filters=WARNING_FILTERS,
    )
