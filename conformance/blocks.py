"""Parse a spec document into requirement and doctest-directive blocks, with sybil.

Sybil's ``DirectiveLexer`` finds the directives; this module only turns its
lexemes into typed blocks, with the true ``.rst`` line of every block's first
source line, and rejects what Sphinx would merely warn about.
"""

from __future__ import annotations

import doctest
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from sybil import Document, Region
from sybil.parsers.rest.lexers import DirectiveLexer

from conformance.adapter import PROFILES

TEST_KINDS = ("testcode", "doctest")
BLOCK_KINDS = ("testsetup", "testcleanup", "testcode", "testoutput", "doctest")
_DIRECTIVES = "|".join((*BLOCK_KINDS, "requirement"))

#: The option names Sphinx's doctest directives accept, per directive.
_ALLOWED_OPTIONS: Mapping[str, frozenset[str]] = {
    "testsetup": frozenset({"skipif"}),
    "testcleanup": frozenset({"skipif"}),
    "testcode": frozenset({"hide", "skipif", "trim-doctest-flags", "no-trim-doctest-flags"}),
    "testoutput": frozenset(
        {"hide", "options", "skipif", "trim-doctest-flags", "no-trim-doctest-flags"}
    ),
    "doctest": frozenset(
        {"hide", "options", "pyversion", "skipif", "trim-doctest-flags", "no-trim-doctest-flags"}
    ),
    "requirement": frozenset({"profile", "explore", "level"}),
}


class SpecSyntaxError(ValueError):
    """A block of a spec document that cannot be run as written."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}, line {line}: {message}")
        self.path = path
        self.line = line


@dataclass(frozen=True)
class Requirement:
    """A normative rule: ``.. requirement:: ID`` with ``:profile:`` and its text."""

    id: str
    profile: str
    text: str
    path: str
    line: int
    #: its examples also run under controlled schedules (``:explore:``)
    explore: bool = False
    #: its RFC 2119 level (``:level:``): MUST, SHOULD or MAY
    level: str = "MUST"


@dataclass(frozen=True)
class Block:
    """One ``testsetup``/``testcleanup``/``testcode``/``testoutput``/``doctest`` block."""

    kind: str
    groups: tuple[str, ...]
    source: str
    path: str
    #: line of the directive itself
    line: int
    #: line of the first source line, where tracebacks must point
    source_line: int
    options: Mapping[int, bool] = field(default_factory=dict)
    skipif: str | None = None
    requirement: Requirement | None = None

    @property
    def is_test(self) -> bool:
        return self.kind in TEST_KINDS

    @property
    def applies_to_all_groups(self) -> bool:
        return "*" in self.groups


def parse_option_flags(raw: str, path: str, line: int) -> dict[int, bool]:
    """``+ELLIPSIS, -NORMALIZE_WHITESPACE`` -> {flag: enabled}, as Sphinx reads it."""
    flags: dict[int, bool] = {}
    for word in raw.replace(",", " ").split():
        sign, name = word[0], word[1:]
        if sign not in "+-":
            raise SpecSyntaxError(path, line, f"option {word!r} must start with '+' or '-'")
        if name not in doctest.OPTIONFLAGS_BY_NAME:
            raise SpecSyntaxError(path, line, f"{name!r} is not a doctest option flag")
        flags[doctest.OPTIONFLAGS_BY_NAME[name]] = sign == "+"
    return flags


class SpecParser:
    """A sybil parser yielding one region per block; ``parsed`` is the Block.

    Regions carry no evaluator: the harness runs them group by group, as
    ``sphinx.ext.doctest`` does, rather than one by one in document order.
    """

    def __init__(self) -> None:
        self._lexer = DirectiveLexer(directive=_DIRECTIVES)

    def __call__(self, document: Document) -> Iterator[Region]:
        requirement: Requirement | None = None
        for lexed in self._lexer(document):
            parsed = self._parse(document, lexed, requirement)
            if isinstance(parsed, Requirement):
                requirement = parsed
            yield Region(lexed.start, lexed.end, parsed=parsed, evaluator=None)

    def _parse(
        self, document: Document, lexed: Region, requirement: Requirement | None
    ) -> Block | Requirement:
        lexemes = lexed.lexemes
        kind: str = lexemes["directive"]
        path = document.path
        line = document.text.count("\n", 0, lexed.start) + 1
        source = lexemes.get("source") or ""
        source_line = line + getattr(source, "line_offset", 0) + 1
        options: dict[str, str] = dict(lexemes.get("options") or {})
        unknown = sorted(set(options) - _ALLOWED_OPTIONS[kind])
        if unknown:
            raise SpecSyntaxError(path, line, f"unknown option(s) {unknown} for {kind}")
        arguments = (lexemes.get("arguments") or "").strip()
        if kind == "requirement":
            return _parse_requirement(arguments, options, str(source), path, line)
        if kind != "testoutput" and not str(source).strip():
            raise SpecSyntaxError(path, line, f"{kind} block has no code")
        flags = (
            parse_option_flags(options["options"], path, line)
            if kind in ("testoutput", "doctest") and "options" in options
            else {}
        )
        groups = tuple(g.strip() for g in arguments.split(",") if g.strip()) or ("default",)
        return Block(
            kind=kind,
            groups=groups,
            source=str(source),
            path=path,
            line=line,
            source_line=source_line,
            options=flags,
            skipif=options.get("skipif"),
            requirement=requirement if kind in TEST_KINDS else None,
        )


def _parse_requirement(
    arguments: str, options: Mapping[str, str], text: str, path: str, line: int
) -> Requirement:
    if not arguments or " " in arguments:
        raise SpecSyntaxError(path, line, f"requirement needs one ID argument, got {arguments!r}")
    profile = options.get("profile", "").strip()
    if profile not in PROFILES:
        raise SpecSyntaxError(
            path,
            line,
            f"requirement {arguments} needs :profile: one of {', '.join(PROFILES)}, "
            f"got {profile!r}",
        )
    return Requirement(
        arguments,
        profile,
        " ".join(text.split()),
        path,
        line,
        explore="explore" in options,
        level=options.get("level", "MUST").strip(),
    )
