"""Row 5, documentation: where the SDK's docs and examples name each protocol feature.

A pure function of the files `sources.read_tree` read. Every line of every documentation and
example file is matched against each feature's method and terms (`features.FEATURES`); each hit
is kept as file and line so a reviewer can follow it. A hit says "this line names the feature",
which is evidence to check, not a verdict: the requirement is decided by a person (or fails
outright when the SDK has no documentation at all).
"""

from __future__ import annotations

from dataclasses import dataclass

from tiercheck.claim.features import FEATURES, Feature
from tiercheck.claim.tree import SourceTree

__all__ = ["DocsCoverage", "FeatureCoverage", "Hit", "docs_coverage"]

#: Hits kept per feature and kind: enough to follow, few enough to read.
MAX_HITS = 5


@dataclass(frozen=True)
class Hit:
    """One line that names a feature."""

    path: str
    line: int
    text: str


@dataclass(frozen=True)
class FeatureCoverage:
    """One feature's hits in prose documentation and in examples, and how many of each."""

    feature: Feature
    doc_hits: tuple[Hit, ...]
    example_hits: tuple[Hit, ...]
    doc_count: int
    example_count: int

    @property
    def covered(self) -> bool:
        """Whether any documentation or example line names the feature."""
        return bool(self.doc_count or self.example_count)

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
    """Every feature's coverage, and the files read."""

    features: tuple[FeatureCoverage, ...]
    doc_files: tuple[str, ...]
    example_files: tuple[str, ...]
    truncated: bool

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
        """Counted features with no hit."""
        return tuple(f for f in self.scored if not f.covered)

    @property
    def core_missing(self) -> tuple[FeatureCoverage, ...]:
        """Core features with no hit (Tier 2 asks for the core ones)."""
        return tuple(f for f in self.missing if f.feature.group == "core")

    @property
    def has_docs(self) -> bool:
        """Whether the SDK has any documentation or example file at all."""
        return bool(self.doc_files or self.example_files)


def _scan(feature: Feature, files: list[tuple[str, list[str]]]) -> tuple[tuple[Hit, ...], int]:
    hits: list[Hit] = []
    count = 0
    for path, lines in files:
        in_context = feature.applies_in(path)
        for number, line in enumerate(lines, start=1):
            if feature.seen_in(line, in_context=in_context):
                count += 1
                if len(hits) < MAX_HITS:
                    hits.append(Hit(path, number, line.strip()[:160]))
    return tuple(hits), count


def docs_coverage(tree: SourceTree) -> DocsCoverage:
    """Each feature's hits in `tree`'s documentation and example files."""
    docs = [(path, text.splitlines()) for path, text in tree.of_kind("docs")]
    examples = [(path, text.splitlines()) for path, text in tree.of_kind("example")]
    rows = []
    for feature in FEATURES:
        doc_hits, doc_count = _scan(feature, docs)
        example_hits, example_count = _scan(feature, examples)
        rows.append(FeatureCoverage(feature, doc_hits, example_hits, doc_count, example_count))
    return DocsCoverage(
        features=tuple(rows),
        doc_files=tuple(path for path, _ in docs),
        example_files=tuple(path for path, _ in examples),
        truncated=tree.truncated,
    )
