"""A doctest run's result as data: what crosses the executor's channel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.sphinx_doctest.model import Location
from conformance.sphinx_doctest.runners import ExampleFailure, RunResult


def result_data(result: RunResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "tries": result.tries,
        "report": result.report,
        "failures": [
            {
                "source": f.source,
                "path": None if f.location.path is None else str(f.location.path),
                "location_line": f.location.line,
                "label": f.location.label,
                "line": f.line,
                "kind": f.kind,
                "detail": f.detail,
                "exception": f.exception,
            }
            for f in result.failures
        ],
    }


def result_from(data: dict[str, Any] | None) -> RunResult | None:
    if data is None:
        return None
    failures = [
        ExampleFailure(
            f["source"],
            Location(
                None if f["path"] is None else Path(f["path"]), f["location_line"], f["label"]
            ),
            f["line"],
            f["kind"],
            f["detail"],
            f["exception"],
        )
        for f in data["failures"]
    ]
    return RunResult(int(data["tries"]), failures, str(data["report"]))


__all__ = ["result_data", "result_from"]
