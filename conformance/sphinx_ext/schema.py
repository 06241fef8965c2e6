"""The docs' ``.. report-schema::``: the ``--report`` JSON format, from its JSON Schema.

Renders a table of every field (``requirements[].outcome``, with its type and
description) walked from ``conformance/reports/report.schema.json``, then the schema
itself. The schema is read from the installed package
(``importlib.resources``), so the spec shows the schema of the suite that
reads it, from a checkout and from a wheel alike; a ``literalinclude`` of a
path relative to ``docs/`` would not be found in a wheel, where the spec is
package data in another folder.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib.resources import files
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conformance.sphinx_ext.tables import row

SCHEMA = "report.schema.json"


def load_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((files("conformance.reports") / SCHEMA).read_text("utf-8"))
    return data


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with its ``$ref`` (to ``#/$defs/...``) merged in; its own keys win."""
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return node
    target = schema["$defs"][ref.removeprefix("#/$defs/")]
    return {**_resolve(schema, target), **{k: v for k, v in node.items() if k != "$ref"}}


def describe_type(node: dict[str, Any]) -> str:
    """``string``, ``integer >= 0``, ``one of "a", "b"``, ``always 2``..."""
    if "const" in node:
        return f"always {json.dumps(node['const'])}"
    if "enum" in node:
        return "one of " + " ".join(json.dumps(value) for value in node["enum"])
    kind = str(node.get("type", "any"))
    if kind == "array":
        return "array"
    if "minimum" in node:
        kind += f" >= {node['minimum']}"
    if node.get("format"):
        kind += f" ({node['format']})"
    return kind


def fields(
    schema: dict[str, Any], node: dict[str, Any], path: str = ""
) -> Iterator[tuple[str, str, str]]:
    """Every field below ``node``: dotted path, type and description, depth first."""
    node = _resolve(schema, node)
    for name, raw in node.get("properties", {}).items():
        child = _resolve(schema, raw)
        here = f"{path}.{name}" if path else name
        yield here, describe_type(child), str(child.get("description", ""))
        yield from _nested(schema, child, here)


def _nested(
    schema: dict[str, Any], node: dict[str, Any], path: str
) -> Iterator[tuple[str, str, str]]:
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        yield from fields(schema, node["items"], path + "[]")
    elif node.get("type") == "object" and isinstance(node.get("additionalProperties"), dict):
        keys = _resolve(schema, node.get("propertyNames", {}))
        key = "<" + ("|".join(keys["enum"]) if "enum" in keys else "key") + ">"
        value = _resolve(schema, node["additionalProperties"])
        yield f"{path}.{key}", describe_type(value), str(value.get("description", ""))
        yield from _nested(schema, value, f"{path}.{key}")
    else:
        yield from fields(schema, node, path) if "properties" in node else ()


class ReportSchemaDirective(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        schema = load_schema()
        self.env.note_dependency(str(files("conformance.reports") / SCHEMA))
        table = nodes.table(classes=["forkwait-report-fields", "colwidths-given"])
        group = nodes.tgroup(cols=3)
        table += group
        group += [nodes.colspec(colwidth=w) for w in (34, 26, 40)]
        head, body = nodes.thead(), nodes.tbody()
        head += row(nodes.Text("field"), nodes.Text("type"), nodes.Text("meaning"))
        for path, kind, description in fields(schema, schema):
            body += row(nodes.literal("", path), *_verbatim(kind), *_verbatim(description))
        group += [head, body]
        text = json.dumps(schema, indent=2)
        block = nodes.literal_block(text, text, language="json")
        wrapper = nodes.container("", literal_block=True, classes=["literal-block-wrapper"])
        wrapper += nodes.caption("", f"conformance/reports/{SCHEMA}")
        wrapper += block
        self.set_source_info(wrapper)
        wrapper["ids"].append("report-schema-json")
        return [table, wrapper]


#: JSON strings and command-line options: shown as written, not typeset ("--" is no dash)
_VERBATIM = re.compile(r'("[^"]*"|--[\w-]+)')


def _verbatim(text: str) -> list[nodes.paragraph]:
    """One cell's paragraph, its JSON strings and options as literals."""
    parts = _VERBATIM.split(text)
    return [
        nodes.paragraph(
            "",
            "",
            *[
                nodes.literal("", part) if index % 2 else nodes.Text(part)
                for index, part in enumerate(parts)
                if part
            ],
        )
    ]


#: every file this extension reads it notes as a dependency (sphinx_doctest/snapshot.py)
SPHINX_DOCTEST_DEPENDENCIES_NOTED = True


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("report-schema", ReportSchemaDirective)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
