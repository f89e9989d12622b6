"""Row 5, documentation: where the SDK's docs and examples name each protocol feature.

A pure function of the files `sources.read_tree` read. Every line of every documentation and
example file is matched against each feature's method and terms (`features.FEATURES`); each hit
is kept as file and line so a reviewer can follow it. A hit says "this line names the feature",
which is evidence to check, not a verdict: the requirement is decided by a person (or fails
outright when the SDK has no documentation at all).

Hits are ranked so the first is where the feature is documented, as the filed claims point at
it: a heading that names the feature, or a line in a section whose heading names it (or its
topic: "## Tools" for "Tools: listing"), in the documentation folder before the README before
any other page, and asides (migration notes, deprecations, troubleshooting, design notes) last;
within each, the page named after the topic first; only then passing mentions. Example hits
rank files whose path names the topic first. The revision the SDK targets decides which
features still count: one the spec has deprecated or removed by then (`features.LIFECYCLE`) is
shown, but its gap does not block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal

from tiercheck.claim.features import (
    FEATURES,
    Feature,
    Lifecycle,
    lifecycle_at,
    stem_pattern,
    topic_pattern,
)
from tiercheck.claim.tree import SourceTree

__all__ = ["DocsCoverage", "FeatureCoverage", "Hit", "HitKind", "docs_coverage", "structure"]

#: Hits kept per feature and kind: enough to follow, few enough to read.
MAX_HITS = 5

HitKind = Literal["heading", "section", "mention", "example"]

_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^\s{0,3}([=\-~^\"'`#*+])\1{2,}\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


@dataclass(frozen=True)
class Hit:
    """One line that names a feature: where, how it names it, and the section it sits in."""

    path: str
    line: int
    text: str
    kind: HitKind = "mention"
    section: str | None = None


@dataclass(frozen=True)
class FeatureCoverage:
    """One feature's hits in prose documentation and in examples, best first, and how many."""

    feature: Feature
    doc_hits: tuple[Hit, ...]
    example_hits: tuple[Hit, ...]
    doc_count: int
    example_count: int
    lifecycle: Lifecycle | None = None

    @property
    def covered(self) -> bool:
        """Whether any documentation or example line names the feature."""
        return bool(self.doc_count or self.example_count)

    @property
    def blocking(self) -> bool:
        """Whether a gap here counts: not when the spec deprecated or removed the feature by
        the revision the SDK targets."""
        return self.lifecycle is None

    @property
    def best_doc(self) -> Hit | None:
        """Where the feature is documented, as far as a rule can tell."""
        return self.doc_hits[0] if self.doc_hits else None

    @property
    def best_example(self) -> Hit | None:
        """The example that shows it, as far as a rule can tell."""
        return self.example_hits[0] if self.example_hits else None

    @property
    def finding(self) -> str:
        """`docs and example`, `docs only`, `example only` or `no hit`."""
        if self.doc_count and self.example_count:
            return "docs and example"
        if self.doc_count:
            return "docs only"
        if self.example_count:
            return "example only"
        return "no hit"


@dataclass(frozen=True)
class DocsCoverage:
    """Every feature's coverage, the files read, and the revision it was judged against."""

    features: tuple[FeatureCoverage, ...]
    doc_files: tuple[str, ...]
    example_files: tuple[str, ...]
    truncated: bool
    revision: str | None = None

    @property
    def scored(self) -> tuple[FeatureCoverage, ...]:
        """The 48 features that count."""
        return tuple(f for f in self.features if f.feature.group != "experimental")

    @property
    def covered(self) -> tuple[FeatureCoverage, ...]:
        """Counted features with at least one hit."""
        return tuple(f for f in self.scored if f.covered)

    @property
    def missing(self) -> tuple[FeatureCoverage, ...]:
        """Counted features with no hit whose gap blocks (active at the targeted revision)."""
        return tuple(f for f in self.scored if not f.covered and f.blocking)

    @property
    def non_blocking(self) -> tuple[FeatureCoverage, ...]:
        """Counted features with no hit that the spec deprecated or removed by the revision."""
        return tuple(f for f in self.scored if not f.covered and not f.blocking)

    @property
    def core_missing(self) -> tuple[FeatureCoverage, ...]:
        """Core features with no hit (Tier 2 asks for the core ones)."""
        return tuple(f for f in self.missing if f.feature.group == "core")

    @property
    def has_docs(self) -> bool:
        """Whether the SDK has any documentation or example file at all."""
        return bool(self.doc_files or self.example_files)


def _rst(path: str) -> bool:
    return PurePosixPath(path).suffix.lower() in (".rst", ".txt", ".adoc")


def structure(path: str, lines: list[str]) -> list[tuple[bool, tuple[str, ...]]]:
    """For each line: whether it is a heading, and the headings it sits under (its own
    included), outermost first. Markdown ATX and setext headings, reStructuredText underlines;
    nothing inside a fenced code block is a heading."""
    out: list[tuple[bool, tuple[str, ...]]] = []
    stack: list[tuple[int, str]] = []
    rst_levels: list[str] = []
    fenced = False
    for index, line in enumerate(lines):
        heading: tuple[int, str] | None = None
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            atx = _ATX.match(line) if not _rst(path) else None
            following = lines[index + 1] if index + 1 < len(lines) else ""
            under = _UNDERLINE.match(following)
            if atx:
                heading = (len(atx.group(1)), atx.group(2))
            elif (
                under
                and line.strip()
                and not _UNDERLINE.match(line)
                and len(following.strip()) >= min(len(line.strip()), 3)
            ):
                char = under.group(1)
                if _rst(path):
                    if char not in rst_levels:
                        rst_levels.append(char)
                    heading = (rst_levels.index(char) + 1, line.strip())
                elif char in "=-":
                    heading = (1 if char == "=" else 2, line.strip())
        if heading is not None:
            while stack and stack[-1][0] >= heading[0]:
                stack.pop()
            stack.append(heading)
        out.append((heading is not None, tuple(text for _, text in stack)))
    return out


#: Pages that mention features without documenting them: what changed, what is deprecated,
#: what goes wrong, how the code was designed. A hit there ranks after any other page's.
_ASIDE_STEMS = frozenset(
    {
        "migration",
        "migrating",
        "upgrading",
        "deprecated",
        "deprecations",
        "troubleshooting",
        "faq",
        "rough_edges",
        "contributing",
        "code_of_conduct",
    }
)
_ASIDE_DIRS = frozenset({"design", "rfc", "rfcs", "proposals", "adr", "adrs"})
_DOC_DIRS = frozenset({"docs", "doc", "documentation", "guide", "guides"})


def _place(path: str) -> int:
    """0 the documentation folder, 1 a README, 2 another page, 3 an aside (migration notes,
    deprecations, troubleshooting, design notes)."""
    pure = PurePosixPath(path)
    parts = [p.lower() for p in pure.parts[:-1]]
    stem = pure.stem.lower().replace("-", "_")
    if stem in _ASIDE_STEMS or any(p in _ASIDE_DIRS for p in parts):
        return 3
    if any(p in _DOC_DIRS for p in parts):
        return 0
    if stem == "readme":
        return 1
    return 2


_KIND_RANK = {"heading": 0, "section": 1, "mention": 2, "example": 2}
_MARKUP = re.compile(r"[`*_\[\]]|^\s*(?:\d+[.)]\s*|(?:the|a|an)\s+)", re.IGNORECASE)


@dataclass(frozen=True)
class _Namer:
    """How a heading can name one feature: its terms, its topic, the word for it."""

    feature: Feature
    topic: re.Pattern[str]
    stem: re.Pattern[str] | None

    def grade(self, heading: str) -> int:
        """0 a heading that leads with the feature ("Listing tools", "Calling a tool"), 1 one
        that names it elsewhere ("Intercepting `tools/call`"), 2 one about its topic ("Tools"),
        3 one about something else."""
        text = _MARKUP.sub("", heading).strip()
        on_topic = self.topic.search(text) is not None
        by_word = on_topic and self.stem is not None and self.stem.search(text) is not None
        if not (self.feature.seen_in(heading) or by_word):
            return 2 if on_topic else 3
        leads = self.stem.match(text) if self.stem is not None else self.topic.match(text)
        if leads is not None or (self.topic.match(text) and by_word):
            return 0
        return 1


def _doc_rank(hit: Hit, grade: int, topic: re.Pattern[str]) -> tuple[int, ...]:
    # Within a place, the page named after the topic (docs/servers/tools.md) comes first.
    named = 0 if topic.search(PurePosixPath(hit.path).stem) else 1
    placed = 0 if grade < 3 else 1
    return (placed, _place(hit.path), grade, named, _KIND_RANK[hit.kind], hit.line)


def _scan_docs(
    feature: Feature, files: list[tuple[str, list[str], list[tuple[bool, tuple[str, ...]]]]]
) -> tuple[tuple[Hit, ...], int]:
    ranked: list[tuple[tuple[int, ...], str, Hit]] = []
    topic = topic_pattern(feature)
    namer = _Namer(feature, topic, stem_pattern(feature))
    for path, lines, shape in files:
        in_context = feature.applies_in(path)
        for number, line in enumerate(lines, start=1):
            if not feature.seen_in(line, in_context=in_context):
                continue
            is_heading, headings = shape[number - 1]
            kind: HitKind = "mention"
            section = headings[-1] if headings else None
            grades = [(namer.grade(h), -depth, h) for depth, h in enumerate(headings)]
            grade = 3
            if is_heading:
                kind, grade = "heading", min(namer.grade(headings[-1]), 1)
            elif grades:
                # The heading that names the feature best, the innermost of equals.
                best = min(grades)
                if best[0] < 3:
                    kind, grade, section = "section", best[0], best[2]
            hit = Hit(path, number, line.strip()[:160], kind, section)
            ranked.append((_doc_rank(hit, grade, topic), path, hit))
    ranked.sort(key=lambda r: (r[0][:5], r[1], r[0][5]))
    return tuple(r[2] for r in ranked[:MAX_HITS]), len(ranked)


def _scan_examples(
    feature: Feature, files: list[tuple[str, list[str]]]
) -> tuple[tuple[Hit, ...], int]:
    hits: list[Hit] = []
    topic = topic_pattern(feature)
    for path, lines in files:
        in_context = feature.applies_in(path)
        for number, line in enumerate(lines, start=1):
            if feature.seen_in(line, in_context=in_context):
                hits.append(Hit(path, number, line.strip()[:160], "example"))
    # An example whose path names the topic (examples/servers/simple-tool/…) shows it best.
    hits.sort(key=lambda h: (0 if topic.search(h.path) else 1, h.path, h.line))
    return tuple(hits[:MAX_HITS]), len(hits)


def docs_coverage(tree: SourceTree, revision: str | None = None) -> DocsCoverage:
    """Each feature's hits in `tree`'s documentation and example files, best first, judged
    against `revision` (the newest the SDK is scored at)."""
    docs = []
    for path, text in tree.of_kind("docs"):
        lines = text.splitlines()
        docs.append((path, lines, structure(path, lines)))
    examples = [(path, text.splitlines()) for path, text in tree.of_kind("example")]
    rows = []
    for feature in FEATURES:
        doc_hits, doc_count = _scan_docs(feature, docs)
        example_hits, example_count = _scan_examples(feature, examples)
        rows.append(
            FeatureCoverage(
                feature,
                doc_hits,
                example_hits,
                doc_count,
                example_count,
                lifecycle_at(feature, revision),
            )
        )
    return DocsCoverage(
        features=tuple(rows),
        doc_files=tuple(path for path, _, _ in docs),
        example_files=tuple(path for path, _ in examples),
        truncated=tree.truncated,
        revision=revision,
    )
