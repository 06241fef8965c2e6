"""The docs' pictures come from real runs: a traced graph's DOT, a recorded scripted run.

The functions are tested directly (no ``dot`` needed); one small Sphinx project
per builder checks that the directives put the pictures, the visible setup
code, the counts and the coloured matrix into the HTML, and that a non-HTML
build (what the doctest builder and the suite do) runs none of the programs.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

import reference_impl as fw
from conformance.sphinx_ext.figures_from_runs import graph_dot
from conformance.sphinx_ext.timeline import CALL, TASK, WAIT, record
from conformance.sphinx_ext.timeline_svg import to_svg
from tests import sphinx_app
from tests.paths import RESULTS

NESTED = """\
def leaf(x):
    return x + 1

def branch(x):
    return fw.wait(fw.fork(leaf, x)) * 10

def run(x):
    first = fw.fork(leaf, x)
    second = fw.fork(branch, x)
    return fw.wait(first) + fw.wait(second)

traced = fw.trace(run, (fw.tensor(1),))
"""

SCRIPTED = """\
import time
from tests.paths import RESULTS

@fw.ignore
def work(ms: int) -> int:
    time.sleep(ms / 1000)
    return ms

def load(ms: int) -> int:
    return work(ms)

@fw.script
def run() -> int:
    first = fw.fork(load, 20)
    second = fw.fork(load, 10)
    return fw.wait(first) + fw.wait(second)

result = run()
"""


def test_to_dot_draws_each_fork_as_a_box_holding_its_subgraph() -> None:
    dot = graph_dot(NESTED)
    assert dot.startswith("digraph traced {")
    assert dot.rstrip().endswith("}")
    # two forks at the top, the second holding a fork of its own, nested inside its box
    assert dot.count("subgraph cluster_") == 3
    outer = dot.index("subgraph cluster_g_n1 {")
    inner = dot.index("subgraph cluster_g_n1_n0 {")
    assert outer < inner < dot.index("\n  }\n", outer)
    assert "= prim::fork_0(%x)" in dot
    assert "= prim::fork_1(%x)" in dot
    # each wait consumes its fork's future: a bold arrow leaving the fork's box
    futures = re.findall(r"-> (\S+) \[ltail=(cluster_\S+), label=\"(%\d+)\"", dot)
    assert len(futures) == 3
    waits = set(re.findall(r"(\S+) \[label=\"aten::wait", dot))
    assert {target for target, _, _ in futures} == waits


def test_to_dot_is_the_graph_of_the_trace() -> None:
    namespace = {"fw": fw}
    exec(NESTED, namespace)
    traced = namespace["traced"]
    assert traced.graph.to_dot() == graph_dot(NESTED)
    for line in str(traced.graph).splitlines():  # every printed node is drawn
        kind = line.split("= ", 1)[-1].split("(")[0].strip()
        if kind.startswith("aten::"):
            assert kind in traced.graph.to_dot()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_dot_accepts_the_graph(tmp_path: Path) -> None:
    import subprocess  # noqa: PLC0415

    svg = subprocess.run(
        ["dot", "-Tsvg"], input=graph_dot(NESTED), capture_output=True, text=True, check=True
    ).stdout
    assert "prim::fork_1" in svg
    assert "aten::wait" in svg


def test_a_recorded_run_has_a_lane_per_thread_and_a_bar_per_task() -> None:
    timeline = record(SCRIPTED, fw)
    assert timeline.lanes[0] == "caller"
    assert len(set(timeline.lanes)) == len(timeline.lanes)
    assert {span.lane for span in timeline.spans} == set(range(len(timeline.lanes)))
    kinds = [span.kind for span in timeline.spans]
    assert kinds.count(CALL) == 1
    assert kinds.count(TASK) == 2
    assert kinds.count(WAIT) == 2
    assert [fork.name for fork in timeline.forks] == ["load(20)", "load(10)"]
    tasks = {span.task: span for span in timeline.spans if span.kind == TASK}
    for fork in timeline.forks:
        assert fork.lane == 0
        assert fork.at <= tasks[fork.task].start
    call = next(span for span in timeline.spans if span.kind == CALL)
    assert call.lane == 0
    assert call.end - call.start >= 0.02


def test_the_svg_and_the_trace_events_show_the_recording() -> None:
    timeline = record(SCRIPTED, fw)
    svg = to_svg(timeline, "t", "a run")
    assert svg.startswith("<svg")
    assert svg.rstrip().endswith("</svg>")
    assert svg.count('class="forkwait-tl-lane"') == len(timeline.lanes)
    assert svg.count('<g class="forkwait-tl-span forkwait-tl-task">') == 2
    assert svg.count('class="forkwait-tl-fork"') == 2
    assert svg.count('class="forkwait-tl-result"') == 2
    events = json.loads(json.dumps(timeline.to_chrome()))["traceEvents"]
    complete = [e for e in events if e["ph"] == "X"]
    assert len(complete) == len(timeline.spans)
    assert all(e["dur"] >= 0 and e["tid"] >= 1 for e in complete)
    names = {e["tid"]: e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert sorted(names) == list(range(1, len(timeline.lanes) + 1))
    assert {e["ph"] for e in events if e.get("cat") == "fork"} == {"i", "s", "f"}


PAGE = """\
Demo
====

.. testsetup:: *

   def helper():
       return 42

.. requirement:: DEMO-1
   :profile: core
   :level: MUST

   A rule.

.. testcode::

   print(helper())

.. testoutput::

   42

.. requirement-counts::

.. traced-graph::
   :caption: The graph of ``run``.

{nested}

.. scripted-timeline::
   :caption: A run.

{scripted}

.. conformance-matrix:: _results/reference.json _results/torch.json _results/dask.json
"""


def problems(warnings: str) -> list[str]:
    """Sphinx's warnings, a line each."""
    return warnings.splitlines()


def build(tmp_path: Path, builder: str, page: str) -> tuple[Path, str]:
    source = tmp_path / "src"
    source.mkdir(exist_ok=True)
    (source / "conf.py").write_text(
        "extensions = ['sphinx.ext.doctest', 'conformance.sphinx_ext.requirements',"
        " 'conformance.sphinx_ext.figures_from_runs']\ngraphviz_output_format = 'svg'\n",
        encoding="utf-8",
    )
    (source / "index.rst").write_text(page, encoding="utf-8")
    shutil.copytree(RESULTS, source / "_results", dirs_exist_ok=True)
    out = tmp_path / builder
    _, warnings = sphinx_app.build(source, out, tmp_path / f"doctrees-{builder}", builder)
    return out, warnings


def page(nested: str = NESTED, scripted: str = SCRIPTED) -> str:
    return PAGE.format(
        nested=textwrap.indent(nested, "   "), scripted=textwrap.indent(scripted, "   ")
    )


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_the_html_shows_the_pictures_the_setup_and_the_tables(tmp_path: Path) -> None:
    out, warnings = build(tmp_path, "html", page())
    assert problems(warnings) == []
    html = (out / "index.html").read_text(encoding="utf-8")
    graph = re.search(r'<object data="(_images/graphviz-[0-9a-f]+\.svg)"', html)
    assert graph, "no graph picture"
    assert "prim::fork_1" in (out / graph.group(1)).read_text(encoding="utf-8")
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="forkwait-timeline"' in html
    trace = json.loads(
        (out / "_timelines" / "index-timeline-1.trace.json").read_text(encoding="utf-8")
    )
    assert any(e["ph"] == "X" and e["name"] == "load(20)" for e in trace["traceEvents"])
    assert 'href="_timelines/index-timeline-1.trace.json"' in html
    assert "Setup for every example on this page" in html
    assert "helper" in html
    assert 'class="forkwait-requirement-counts' in html
    assert re.search(r'<td class="[^"]*forkwait-outcome-xfailed', html)  # torch's
    assert "skipped (adapter)" in html


def test_other_builders_run_none_of_the_programs(tmp_path: Path) -> None:
    failing = "raise SystemExit('ran while reading')\n"
    out, warnings = build(tmp_path, "text", page(nested=failing, scripted=failing))
    assert problems(warnings) == []
    text = (out / "index.txt").read_text(encoding="utf-8")
    assert "raise SystemExit" in text  # the program is shown; no picture, no run
