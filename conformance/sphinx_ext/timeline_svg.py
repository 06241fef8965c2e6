"""Draw a recorded :class:`~conformance.sphinx_ext.timeline.Timeline` as an SVG picture.

One lane per thread (the caller first), one bar per scripted call, task and
wait, stacked where they nest on a thread (a wait inside the call that waits;
a task the waiting thread ran itself inside that wait); an arrow from each
``fork`` to the start of its task, and a dashed one from the task's end to
the end of the wait that took its value. A millisecond axis on top.

Written by hand, not with a plotting library: it is a few dozen rectangles,
lines and labels, and inline SVG lets the page's stylesheet colour it for
light and dark themes (classes ``forkwait-tl-*`` in ``conf/_static/forkwait.css``;
the attributes here are the fallback colours). Graphviz, which draws the
trace graphs, lays out graphs, not time axes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

from conformance.sphinx_ext.timeline import CALL, TASK, WAIT, Span, Timeline

WIDTH = 760
LABELS = 112  # the lane names' column
RIGHT = 16
AXIS = 28  # the time axis above the lanes
ROW = 22  # one level of nesting
BAR = 16
GAP = 10  # between lanes
CHAR = 7.0  # an average character at 12px, to decide whether a label fits its bar
FILL = {CALL: "#c6dafc", TASK: "#b7e1c1", WAIT: "#fde2c4"}
STROKE = {CALL: "#1a56c4", TASK: "#1e7e45", WAIT: "#b35c00"}
LEGEND = ((CALL, "scripted call"), (TASK, "forked task"), (WAIT, "wait"))


def _depths(spans: list[Span]) -> dict[Span, int]:
    """How deep each span sits among the spans of its lane that enclose it."""
    depth: dict[Span, int] = {}
    open_ends: dict[int, list[float]] = {}
    for span in sorted(spans, key=lambda s: (s.lane, s.start, -s.end)):
        stack = open_ends.setdefault(span.lane, [])
        while stack and stack[-1] <= span.start:
            stack.pop()
        depth[span] = len(stack)
        stack.append(span.end)
    return depth


def _tick_step(duration_ms: float) -> float:
    """1, 2 or 5 times a power of ten, giving at most eight ticks."""
    raw = max(duration_ms, 1e-3) / 8
    power = 10 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def to_svg(timeline: Timeline, ident: str = "timeline", title: str = "") -> str:
    """The picture, as an ``<svg>`` element sized to its container's width."""
    duration = timeline.duration or 1e-3
    plot = WIDTH - LABELS - RIGHT
    depths = _depths(timeline.spans)
    rows = [1] * len(timeline.lanes)
    for span, depth in depths.items():
        rows[span.lane] = max(rows[span.lane], depth + 1)
    tops = [AXIS + sum(r * ROW + GAP for r in rows[:lane]) for lane in range(len(rows))]
    legend_y = (tops[-1] + rows[-1] * ROW + GAP if tops else AXIS) + 8
    height = legend_y + 20

    def x(seconds: float) -> float:
        return round(LABELS + plot * seconds / duration, 1)

    def y(span: Span) -> float:
        return tops[span.lane] + depths[span] * ROW + (ROW - BAR) / 2

    label = escape(title or "timeline of a scripted run")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="forkwait-timeline" role="img" '
        f'viewBox="0 0 {WIDTH} {height}" width="100%" font-family="sans-serif" font-size="12" '
        f'aria-labelledby="{ident}-title"><title id="{ident}-title">{label}</title>',
        f'<defs><marker id="{ident}-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L8,4 L0,8 z" '
        f'class="forkwait-tl-arrowhead" fill="#5f6368"/></marker></defs>',
    ]
    step = _tick_step(duration * 1e3)
    ticks = int(duration * 1e3 / step + 1e-9)
    for index in range(ticks + 1):
        at = x(index * step / 1e3)
        out.append(
            f'<line class="forkwait-tl-grid" x1="{at}" x2="{at}" y1="{AXIS - 6}" '
            f'y2="{legend_y - 8}" stroke="#dadce0"/>'
            f'<text class="forkwait-tl-text" x="{at}" y="{AXIS - 10}" text-anchor="middle" '
            f'fill="currentColor">{index * step:g} ms</text>'
        )
    for lane, name in enumerate(timeline.lanes):
        middle = tops[lane] + rows[lane] * ROW / 2 + 4
        out.append(
            f'<text class="forkwait-tl-lane" x="{LABELS - 8}" y="{middle}" text-anchor="end" '
            f'font-weight="600" fill="currentColor">{escape(name)}</text>'
        )
    for span in sorted(timeline.spans, key=lambda s: depths[s]):
        left, top, width = x(span.start), y(span), max(x(span.end) - x(span.start), 1.5)
        text = escape(span.name)
        out.append(
            f'<g class="forkwait-tl-span forkwait-tl-{span.kind}"><title>{text}: '
            f"{(span.end - span.start) * 1e3:.1f} ms</title>"
            f'<rect x="{left}" y="{top}" width="{width}" height="{BAR}" rx="3" '
            f'fill="{FILL[span.kind]}" stroke="{STROKE[span.kind]}"/>'
        )
        # the whole name if it fits, else its first word ("wait"); the tooltip has it all
        shown = next(
            (t for t in (span.name, span.name.split()[0]) if len(t) * CHAR + 8 <= width), ""
        )
        if shown:
            out.append(
                f'<text x="{left + 4}" y="{top + BAR - 4}" fill="#202124">{escape(shown)}</text>'
            )
        out.append("</g>")
    out += _arrows(timeline, ident, x, y)
    out += _legend(legend_y)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _arrows(
    timeline: Timeline, ident: str, x: Callable[[float], float], y: Callable[[Span], float]
) -> list[str]:
    """Fork -> task start (solid), task end -> the end of the wait that took it (dashed)."""
    tasks = {span.task: span for span in timeline.spans if span.kind == TASK}
    forker = {
        fork.task: next(
            (s for s in timeline.spans if s.lane == fork.lane and s.start <= fork.at <= s.end),
            None,
        )
        for fork in timeline.forks
    }
    out: list[str] = []
    for fork in timeline.forks:
        task, source = tasks.get(fork.task), forker.get(fork.task)
        if task is None or source is None:
            continue
        out.append(_line((x(fork.at), y(source) + BAR), (x(task.start), y(task)), ident, "fork"))
    for wait in (s for s in timeline.spans if s.kind == WAIT and s.task in tasks):
        task = tasks[wait.task]
        out.append(
            _line(
                (x(task.end), y(task) + BAR / 2), (x(wait.end), y(wait) + BAR / 2), ident, "result"
            )
        )
    return out


def _line(start: tuple[float, float], end: tuple[float, float], ident: str, kind: str) -> str:
    (x1, y1), (x2, y2) = start, end
    dash = ' stroke-dasharray="3 2"' if kind == "result" else ""
    return (
        f'<line class="forkwait-tl-{kind}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
        f'stroke="#5f6368" stroke-width="1.2"{dash} marker-end="url(#{ident}-arrow)"/>'
    )


def _legend(top: float) -> list[str]:
    out, left = [], float(LABELS)
    for kind, text in LEGEND:
        out.append(
            f'<g class="forkwait-tl-key forkwait-tl-{kind}"><rect x="{left}" y="{top}" '
            f'width="14" height="10" rx="2" fill="{FILL[kind]}" stroke="{STROKE[kind]}"/></g>'
            f'<text class="forkwait-tl-text" x="{left + 19}" y="{top + 9}" '
            f'fill="currentColor">{text}</text>'
        )
        left += 19 + len(text) * CHAR + 18
    out.append(
        f'<text class="forkwait-tl-text" x="{left}" y="{top + 9}" fill="currentColor">'
        "→ fork starts a task, ⇢ wait takes its value</text>"
    )
    return out
