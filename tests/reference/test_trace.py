"""trace: the graph IR, its printed form, re-execution, and what cannot be traced."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference_impl as fw
from reference_impl.tracing.graph import Graph
from reference_impl.tracing.tensor import OPS
from reference_impl.tracing.trace import GraphNode, run_graph

# -- golden texts of printed graphs ----------------------------------------------


def add2(a: fw.Tensor, b: int) -> fw.Tensor:
    return a + b


def single(a: fw.Tensor) -> fw.Tensor:
    return fw.wait(fw.fork(add2, a, b=2))


SINGLE = """\
graph(%a : Tensor):
  %1 : Future[Tensor] = prim::fork_0(%a)
  %2 : Tensor = aten::wait(%1)
  return (%2)
with prim::fork_0 = graph(%a : Tensor):
  %1 : int = prim::Constant[value=2]()
  %2 : Tensor = aten::add(%a, %1)
  return (%2)"""


def neg(x: fw.Tensor) -> fw.Tensor:
    return -x


def two(x: fw.Tensor) -> fw.Tensor:
    first, second = fw.fork(neg, x), fw.fork(add2, x, 1)
    return fw.wait(first) * fw.wait(second)


TWO = """\
graph(%x : Tensor):
  %1 : Future[Tensor] = prim::fork_0(%x)
  %2 : Future[Tensor] = prim::fork_1(%x)
  %3 : Tensor = aten::wait(%1)
  %4 : Tensor = aten::wait(%2)
  %5 : Tensor = aten::mul(%3, %4)
  return (%5)
with prim::fork_0 = graph(%x : Tensor):
  %1 : Tensor = aten::neg(%x)
  return (%1)
with prim::fork_1 = graph(%a : Tensor):
  %1 : int = prim::Constant[value=1]()
  %2 : Tensor = aten::add(%a, %1)
  return (%2)"""


def inner(y: fw.Tensor) -> fw.Tensor:
    return fw.wait(fw.fork(neg, y)).sum()


def nested(x: fw.Tensor) -> fw.Tensor:
    return fw.wait(fw.fork(inner, x)) - 1


NESTED = """\
graph(%x : Tensor):
  %1 : Future[Tensor] = prim::fork_0(%x)
  %2 : Tensor = aten::wait(%1)
  %3 : int = prim::Constant[value=1]()
  %4 : Tensor = aten::sub(%2, %3)
  return (%4)
with prim::fork_0 = graph(%y : Tensor):
  %1 : Future[Tensor] = prim::fork_0(%y)
  %2 : Tensor = aten::wait(%1)
  %3 : Tensor = aten::sum(%2)
  return (%3)
  with prim::fork_0 = graph(%x : Tensor):
    %1 : Tensor = aten::neg(%x)
    return (%1)"""


def weighted(x: fw.Tensor, *, weight: int = 1, bias: fw.Tensor) -> fw.Tensor:
    return x * weight + bias


def kwargs(x: fw.Tensor, b: fw.Tensor) -> fw.Tensor:
    return fw.wait(fw.fork(weighted, x, bias=b, weight=4))


KWARGS = """\
graph(%x : Tensor, %b : Tensor):
  %1 : Future[Tensor] = prim::fork_0(%x, %b)
  %2 : Tensor = aten::wait(%1)
  return (%2)
with prim::fork_0 = graph(%x : Tensor, %bias : Tensor):
  %1 : int = prim::Constant[value=4]()
  %2 : Tensor = aten::mul(%x, %1)
  %3 : Tensor = aten::add(%2, %bias)
  return (%3)"""


class Square(fw.Module):
    def forward(self, x: fw.Tensor) -> fw.Tensor:
        return x * x


class Model(fw.Module):
    def __init__(self) -> None:
        self.square = Square()

    def forward(self, x: fw.Tensor) -> Any:
        fut = fw.fork(self.square, x)
        fw.fork(self.square, x + 1)  # never waited, still recorded
        return fw.wait(fut), x


MODULE = """\
graph(%x : Tensor):
  %1 : Future[Tensor] = prim::fork_0(%x)
  %2 : int = prim::Constant[value=1]()
  %3 : Tensor = aten::add(%x, %2)
  %4 : Future[Tensor] = prim::fork_1(%3)
  %5 : Tensor = aten::wait(%1)
  return (%5, %x)
with prim::fork_0 = graph(%x : Tensor):
  %1 : Tensor = aten::mul(%x, %x)
  return (%1)
with prim::fork_1 = graph(%x : Tensor):
  %1 : Tensor = aten::mul(%x, %x)
  return (%1)"""

OFFSET = fw.tensor([10, 20])


def captured(x: fw.Tensor) -> fw.Tensor:
    def closure() -> fw.Tensor:
        return x + OFFSET  # x is lifted into the subgraph; OFFSET becomes a constant

    return fw.wait(fw.fork(closure))


CAPTURED = """\
graph(%x : Tensor):
  %1 : Future[Tensor] = prim::fork_0(%x)
  %2 : Tensor = aten::wait(%1)
  return (%2)
with prim::fork_0 = graph(%1 : Tensor):
  %2 : Tensor = prim::Constant[value=[10, 20]]()
  %3 : Tensor = aten::add(%1, %2)
  return (%3)"""


@pytest.mark.parametrize(
    ("func", "inputs", "expected"),
    [
        (single, (fw.tensor(2),), SINGLE),
        (two, (fw.tensor(3),), TWO),
        (nested, (fw.tensor([1, 2]),), NESTED),
        (kwargs, (fw.tensor(1), fw.tensor(5)), KWARGS),
        (Model(), (fw.tensor(3),), MODULE),
        (captured, (fw.tensor([1, 2]),), CAPTURED),
    ],
    ids=["single", "two", "nested", "kwargs", "module", "captured"],
)
def test_printed_graphs_match_golden_text(func: Any, inputs: Any, expected: str) -> None:
    traced = fw.trace(func, inputs)
    assert str(traced.graph) == expected
    # and the graph computes what the function computes
    again = tuple(fw.tensor(x.tolist()) for x in inputs)
    assert _data(traced(*again)) == _data(func(*again))


def _data(result: Any) -> Any:
    if isinstance(result, tuple):
        return [r.tolist() for r in result]
    return result.tolist()


# -- the IR itself ---------------------------------------------------------------


def test_graph_building_and_interpreting_by_hand() -> None:
    graph = Graph()
    x = graph.add_input("x")
    constant = graph.add_node("prim::Constant", [], ["int"], {"value": 3})
    product = graph.add_node("aten::mul", [x, constant.outputs[0]], ["Tensor"])
    graph.outputs = [product.outputs[0]]
    assert str(graph).splitlines()[0] == "graph(%x : Tensor):"
    assert run_graph(graph, [fw.tensor([1, 2])])[0].tolist() == [3, 6]


def test_graph_nodes_normalises_kinds_and_links_values() -> None:
    nodes = fw.graph_nodes(fw.trace(nested, fw.tensor(1)))
    assert [n.kind for n in nodes] == ["fork", "wait", "constant", "sub"]
    fork, wait = nodes[0], nodes[1]
    assert isinstance(fork, GraphNode)
    assert wait.inputs == fork.outputs
    (body,) = fork.blocks
    assert [n.kind for n in body] == ["fork", "wait", "sum"]
    assert [n.kind for n in body[0].blocks[0]] == ["neg"]
    with pytest.raises(TypeError, match="traced function"):
        fw.graph_nodes(nested)  # type: ignore[arg-type]


def test_traced_forks_run_asynchronously_on_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    barrier = threading.Barrier(2, timeout=10)
    threads: list[str] = []
    original = OPS["aten::neg"]

    def meeting_neg(a: Any) -> Any:
        threads.append(threading.current_thread().name)
        barrier.wait()  # both forked bodies must be running at once
        return original(a)

    def both(x: fw.Tensor) -> fw.Tensor:
        first, second = fw.fork(neg, x), fw.fork(neg, x + 1)
        return fw.wait(first) + fw.wait(second)

    traced = fw.trace(both, fw.tensor(1))  # tracing itself is synchronous
    monkeypatch.setitem(OPS, "aten::neg", meeting_neg)
    assert traced(fw.tensor(5)).tolist() == -11
    assert any(name.startswith("forkwait-worker") for name in threads)


def test_tracing_runs_the_function_once_and_synchronously() -> None:
    calls: list[str] = []

    def body(x: fw.Tensor) -> fw.Tensor:
        calls.append(threading.current_thread().name)
        return x + 1

    traced = fw.trace(lambda x: fw.wait(fw.fork(body, x)), fw.tensor(1))
    assert calls == [threading.current_thread().name]
    traced(fw.tensor(2))
    assert len(calls) == 1  # re-running interprets the graph, not the Python


# -- errors ----------------------------------------------------------------------


def test_inputs_must_be_tensors() -> None:
    with pytest.raises(TypeError, match=r"input 0 is int .*tensor\(\.\.\.\)"):
        fw.trace(neg, (3,))
    traced = fw.trace(neg, fw.tensor(1))
    with pytest.raises(TypeError, match="takes 1 tensor inputs, got 2"):
        traced(fw.tensor(1), fw.tensor(2))
    with pytest.raises(TypeError, match="input 0 is str"):
        traced("x")
    with pytest.raises(TypeError, match="function or a Module"):
        fw.trace(3, fw.tensor(1))  # type: ignore[arg-type]


def test_a_fork_with_no_data_dependence_is_rejected() -> None:
    log: list[int] = []

    def only_logs(x: fw.Tensor) -> None:
        log.append(1)

    with pytest.raises(fw.TracingError, match=r"only_logs.*returned NoneType.*side effects"):
        fw.trace(lambda x: (fw.wait(fw.fork(only_logs, x)), x)[1], fw.tensor(1))


def test_results_must_be_tensors() -> None:
    with pytest.raises(fw.TracingError, match="return a tensor or a tuple of tensors, got int"):
        fw.trace(lambda x: 3, fw.tensor(1))


def test_waiting_a_future_from_outside_the_trace_is_rejected() -> None:
    outside = fw.fork(neg, fw.tensor(1))
    with pytest.raises(fw.TracingError, match="not forked inside this trace"):
        fw.trace(lambda x: fw.wait(outside) + x, fw.tensor(1))


def test_exceptions_in_traced_forks_surface_at_wait() -> None:
    def fails(x: fw.Tensor) -> fw.Tensor:
        raise ValueError("inside the trace")

    def run(x: fw.Tensor) -> fw.Tensor:
        fut = fw.fork(fails, x)  # must not raise here
        return fw.wait(fut)

    with pytest.raises(ValueError, match="inside the trace"):
        fw.trace(run, fw.tensor(1))


def test_python_control_flow_on_a_tensor_warns_while_tracing() -> None:
    def branchy(x: fw.Tensor) -> fw.Tensor:
        return x + 1 if x > 0 else x - 1

    with pytest.warns(fw.TracerWarning, match="only the branch taken"):
        fw.trace(branchy, fw.tensor(1))


def test_tensor_values_and_errors() -> None:
    t = fw.tensor([[1, 2], [3, 4]])
    assert t.shape == (2, 2)
    assert (t * 2 + 1).tolist() == [[3, 5], [7, 9]]
    assert (10 - t).sum().item() == 30
    assert repr(fw.tensor(2.5)) == "tensor(2.5000)"
    assert repr(t > 2) == "tensor([[False, False], [True, True]])"
    with pytest.raises(ValueError, match="rectangular"):
        fw.tensor([[1], [2, 3]])
    with pytest.raises(TypeError, match="got str"):
        fw.tensor("1")
    with pytest.raises(ValueError, match="shapes do not match"):
        fw.tensor([1, 2]) + fw.tensor([1, 2, 3])
    with pytest.raises(ValueError, match="one element"):
        t.item()
    assert len({t, t}) == 1  # hashable by identity, as torch tensors


# -- property: traced programs rerun like plain Python ---------------------------


@st.composite
def programs(draw: st.DrawFn, depth: int = 0) -> Any:
    """A random tree: (weight, offset, children, waited flags, kwargs style)."""
    width = 0 if depth >= 3 else draw(st.integers(0, 3))
    children = [draw(programs(depth + 1)) for _ in range(width)]
    waited = [draw(st.booleans()) for _ in children]
    return (
        draw(st.integers(-5, 5)),
        draw(st.integers(-9, 9)),
        children,
        waited,
        draw(st.booleans()),
    )


def run_program(x: fw.Tensor, program: Any, scale: int = 1) -> fw.Tensor:
    weight, offset, children, waited, by_keyword = program
    futures = [
        fw.fork(run_program, x + i, program=child, scale=scale + 1)
        if by_keyword
        else fw.fork(run_program, x - i, child, scale)
        for i, child in enumerate(children)
    ]
    total: fw.Tensor = x * weight + offset * scale
    for future, keep in zip(futures, waited, strict=True):
        if keep:
            total = total - fw.wait(future)
    return total


def count_forks(nodes: list[GraphNode] | tuple[GraphNode, ...]) -> int:
    return sum(1 + sum(count_forks(b) for b in n.blocks) for n in nodes if n.kind == "fork")


def tree_size(program: Any) -> int:
    return sum(1 + tree_size(child) for child in program[2])


@settings(max_examples=60, deadline=None)
@given(
    programs(),
    st.lists(st.integers(-50, 50), min_size=1, max_size=3),
    st.lists(st.integers(-50, 50), min_size=1, max_size=3),
)
def test_traced_programs_rerun_like_plain_python(
    program: Any, example: list[int], values: list[int]
) -> None:
    if len(example) != len(values):
        values = (values * len(example))[: len(example)]
    traced = fw.trace(lambda x: run_program(x, program), fw.tensor(example))
    assert count_forks(fw.graph_nodes(traced)) == tree_size(program)
    assert traced(fw.tensor(values)).tolist() == run_program(fw.tensor(values), program).tolist()


def test_thousand_fork_trace_is_quick_enough_to_be_usable() -> None:
    def leaf(x: fw.Tensor) -> fw.Tensor:
        return x + 1

    def many(x: fw.Tensor) -> fw.Tensor:
        futures = [fw.fork(leaf, x) for _ in range(1000)]
        total = x
        for f in futures:
            total = total + fw.wait(f)
        return total

    start = time.perf_counter()
    traced = fw.trace(many, fw.tensor(0))
    assert len(list(traced.graph.forks())) == 1000
    assert traced(fw.tensor(1)).tolist() == 2001
    assert time.perf_counter() - start < 60  # a hang guard, not a speed claim
