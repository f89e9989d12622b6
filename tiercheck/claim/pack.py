"""A claim: the scorecard's verdicts, the evidence behind them and the judgment rows, as one value.

`build_claim` is pure: the scorecard, the governance snapshot it was judged from (when one was
recorded) and the SDK's files as read by `sources.read_tree` go in, a `Claim` comes out. The
Markdown, HTML and JSON renderings are functions of the `Claim` alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tiercheck.claim.baseline import BaselineSource, baseline_section
from tiercheck.claim.changes import Previous, compare, from_scorecard, scenario_states
from tiercheck.claim.conformance import conformance_split
from tiercheck.claim.docs import DocsCoverage, FeatureCoverage, Hit, docs_coverage
from tiercheck.claim.evidence import Evidence, gather_evidence
from tiercheck.claim.header import Manifest, TagFact, build_header
from tiercheck.claim.model import (
    CLAIM_SCHEMA_VERSION,
    BaselineSection,
    Changes,
    ClaimDocument,
    ClaimHeader,
    ClaimRowDoc,
    ConformanceSplit,
    DocsFeatureDoc,
    DocsHitDoc,
    DocumentationDoc,
    EvidenceDoc,
    PreviousAssessment,
    Reproduce,
    ScenarioState,
    SpecByDate,
)
from tiercheck.claim.policies import PolicyFinding, find_policies
from tiercheck.claim.reproduce import Rerun, reproduce
from tiercheck.claim.spec_dates import spec_by_date
from tiercheck.claim.table import ClaimStatus, Row, build_rows, claim_status
from tiercheck.claim.tree import SourceTree
from tiercheck.governance.snapshot import Snapshot
from tiercheck.model import format_time, to_json
from tiercheck.scorecard.model import Scorecard

__all__ = [
    "CLAIM_SCHEMA_VERSION",
    "Claim",
    "ClaimContext",
    "build_claim",
    "claim_document",
    "claim_to_dict",
    "judged_tiers",
    "previous_from_scorecard",
]
#: The official triage window when the scorecard does not say (tier-check's default).
DEFAULT_WINDOW_DAYS = 90


@dataclass(frozen=True)
class Claim:
    """Everything a claim folder says."""

    scorecard: Scorecard
    header: ClaimHeader
    target_tier: int
    tiers: tuple[int, int]
    rows: tuple[Row, ...]
    status: ClaimStatus
    conformance: ConformanceSplit
    baseline: BaselineSection
    reproduce: Reproduce
    spec_by_date: SpecByDate | None
    scenarios: tuple[ScenarioState, ...]
    changes: Changes | None
    coverage: DocsCoverage | None
    policies: tuple[PolicyFinding, PolicyFinding, PolicyFinding] | None
    evidence: Evidence | None
    source: str | None
    docs_ref: str | None = None
    docs_commit: str | None = None
    #: The registry file the SDK's entry came from, as written, when it is not the bundled
    #: one: the claim folder keeps a copy (`reproduce.REGISTRY_COPY`) its command names.
    registry_copy: str | None = None

    @property
    def repo(self) -> str:
        """The repository the claim is for."""
        return self.scorecard.repo

    def commit_url(self, path: str | None = None, line: int | None = None) -> str | None:
        """A link at the assessed commit: the tree, or one file (and line)."""
        commit = self.scorecard.sdk.commit
        if not commit:
            return None
        if path is None:
            return f"https://github.com/{self.repo}/tree/{commit}"
        anchor = f"#L{line}" if line else ""
        return f"https://github.com/{self.repo}/blob/{commit}/{path}{anchor}"

    def docs_url(self, path: str, line: int | None = None) -> str | None:
        """A link to a documentation or example line, at the commit it was read at."""
        if self.docs_commit is None:
            return self.commit_url(path, line)
        anchor = f"#L{line}" if line else ""
        return f"https://github.com/{self.repo}/blob/{self.docs_commit}/{path}{anchor}"


def _as_of(doc: Scorecard) -> datetime | None:
    stamp = doc.governance.as_of
    if not stamp:
        return None
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


@dataclass(frozen=True)
class ClaimContext:
    """What a claim knows beside the scorecard: the checkout's release tag and manifest, the
    previous assessment, and the names the command line gave."""

    release: TagFact | None = None
    #: Each baseline file the scorecard names → its path in the repository and its text.
    baselines: Mapping[str, BaselineSource] = field(default_factory=dict)
    tag_prefix: str | None = None
    manifest: Manifest | None = None
    previous: PreviousAssessment | None = None
    #: The previous assessment's document (`--previous`), to say what changed since.
    previous_doc: Previous | None = None
    #: The language for the title (`--language`, else the registry's `language`).
    language: str | None = None
    #: The names of the files at the checkout's root (its manifests say its language).
    root_files: tuple[str, ...] = ()
    #: Documentation read at another ref than the assessed commit (`--docs-ref`).
    docs_tree: SourceTree | None = None
    docs_ref: str | None = None
    docs_commit: str | None = None
    #: What the reproduce command needs that the scorecard does not record.
    rerun: Rerun = field(default_factory=Rerun)
    #: The text of the registry file the SDK's entry came from (not the bundled one).
    registry_copy: str | None = None


def judged_tiers(target_tier: int) -> tuple[int, int]:
    """The two tiers a claim's table judges, in column order.

    Tier 1 and Tier 2 claims are judged for the tier asked and the one below (the fallback a
    reviewer grants). Tier 3 asks for nothing, so a Tier 3 claim shows what Tier 2 and then
    Tier 1 still need, as the filed Tier 3 claims do.
    """
    if target_tier >= 3:
        return (2, 1)
    return (target_tier, target_tier + 1)


def _published(evidence: Evidence | None) -> dict[str, tuple[str, str]]:
    if evidence is None:
        return {}
    return {
        r.tag: (format_time(r.published_at), r.url)
        for r in evidence.releases
        if r.published_at is not None
    }


def _previous_assessment(context: ClaimContext) -> PreviousAssessment | None:
    given, found = context.previous, context.previous_doc
    if found is None:
        return given
    return PreviousAssessment(
        url=given.url if given else None,
        tier=given.tier if given and given.tier else found.requested_tier,
        version=found.version,
        date=found.date,
        commit=found.commit,
    )


def previous_from_scorecard(doc: Scorecard, source: str, target_tier: int) -> Previous:
    """A previous `scorecard.json` as `--previous` compares it: its measured rows, judged for
    the same tiers as this claim, and its scenarios."""
    rows = build_rows(
        doc, tiers=judged_tiers(target_tier), evidence=None, coverage=None, policies=None
    )
    return from_scorecard(doc, [_row_doc(r, judged_tiers(target_tier)) for r in rows], source)


def _links_out(*trees: SourceTree | None) -> tuple[str, ...]:
    """The links out of the checkout that any tree read left unread, once each."""
    return tuple(sorted({link for tree in trees if tree is not None for link in tree.links_out}))


def _evidence(doc: Scorecard, snapshot: Snapshot | None) -> Evidence | None:
    """The GitHub facts behind the governance rows, from the snapshot the scorecard was judged
    from, over the triage window the scorecard names (SEP-1730's when the official reading
    has none; `DEFAULT_WINDOW_DAYS` when neither does). None without a snapshot or a date."""
    as_of = _as_of(doc)
    if snapshot is None or as_of is None:
        return None
    # SEP-1730's reading has a window even when the official one reads every open issue.
    sep = doc.checks.triage.get("sep1730")
    days = doc.checks.triage.get("days_analyzed") or (
        sep.get("window_days") if isinstance(sep, dict) else None
    )
    days = days or DEFAULT_WINDOW_DAYS
    return gather_evidence(snapshot, as_of, int(days))


def _header(
    doc: Scorecard, target_tier: int, context: ClaimContext, evidence: Evidence | None
) -> ClaimHeader:
    """The claim's header: what was assessed, the release and language, and the previous
    assessment."""
    return build_header(
        doc,
        requested_tier=target_tier,
        release=context.release,
        tag_prefix=context.tag_prefix,
        manifest=context.manifest,
        published=_published(evidence),
        previous=_previous_assessment(context),
        language=context.language,
        root_files=context.root_files,
    )


def build_claim(
    doc: Scorecard,
    *,
    target_tier: int,
    snapshot: Snapshot | None,
    tree: SourceTree | None,
    source: str | None = None,
    context: ClaimContext | None = None,
) -> Claim:
    """The claim for `target_tier`, judged for the tiers `judged_tiers` names."""
    context = context or ClaimContext()
    tiers = judged_tiers(target_tier)
    evidence = _evidence(doc, snapshot)
    docs_tree = context.docs_tree if context.docs_tree is not None else tree
    target = max(doc.requirements_revisions) if doc.requirements_revisions else None
    coverage = docs_coverage(docs_tree, target) if docs_tree is not None else None
    policies = find_policies(tree) if tree is not None else None
    header = _header(doc, target_tier, context, evidence)
    by_date = spec_by_date(header, evidence)
    rows = build_rows(
        doc,
        tiers=tiers,
        evidence=evidence,
        coverage=coverage,
        policies=policies,
        by_date=by_date,
        links_out=_links_out(tree, context.docs_tree),
    )
    scenarios = scenario_states(doc)
    changes = None
    if context.previous_doc is not None:
        changes = compare(context.previous_doc, [_row_doc(r, tiers) for r in rows], doc)
    # Tier 3 has no minimum: a Tier 3 claim can always be filed; its table shows the way up.
    status: ClaimStatus = "ready" if target_tier >= 3 else claim_status(rows)
    return Claim(
        scorecard=doc,
        header=header,
        target_tier=target_tier,
        tiers=tiers,
        rows=rows,
        status=status,
        conformance=conformance_split(doc),
        baseline=baseline_section(doc, context.baselines),
        reproduce=reproduce(doc, tier=target_tier, rerun=context.rerun),
        spec_by_date=by_date,
        scenarios=scenarios,
        changes=changes,
        coverage=coverage,
        policies=policies,
        evidence=evidence,
        source=source,
        docs_ref=context.docs_ref,
        docs_commit=context.docs_commit,
        registry_copy=context.registry_copy,
    )


def _row_doc(row: Row, tiers: tuple[int, int]) -> ClaimRowDoc:
    return ClaimRowDoc(
        id=row.id,
        requirement=row.requirement,
        kind=row.kind,
        standards={f"tier{t}": s for t, s in zip(tiers, row.standards, strict=True)},
        current=row.current,
        verdicts={f"tier{t}": v for t, v in zip(tiers, row.verdicts, strict=True)},
        sep1730=(
            {f"tier{t}": v for t, v in zip(tiers, row.sep1730, strict=True)}
            if row.sep1730 is not None
            else None
        ),
        gap=row.gap,
        evidence=tuple(EvidenceDoc(text=e.text, url=e.url) for e in row.evidence),
        review=row.review,
    )


def _hit_doc(claim: Claim, hit: Hit | None) -> DocsHitDoc | None:
    if hit is None:
        return None
    return DocsHitDoc(
        path=hit.path,
        line=hit.line,
        url=claim.docs_url(hit.path, hit.line),
        kind=hit.kind,
        section=hit.section,
    )


def _lifecycle_text(f: FeatureCoverage) -> str | None:
    life = f.lifecycle
    return None if life is None else f"{life.state} since {life.since} ({life.source})"


def _documentation_doc(claim: Claim) -> DocumentationDoc | None:
    coverage = claim.coverage
    if coverage is None:
        return None
    return DocumentationDoc(
        covered=len(coverage.covered),
        total=len(coverage.scored),
        core_missing=tuple(
            f.feature.number for f in coverage.core_missing if f.feature.number is not None
        ),
        non_blocking=tuple(
            f.feature.number for f in coverage.non_blocking if f.feature.number is not None
        ),
        revision=coverage.revision,
        docs_ref=claim.docs_ref,
        docs_commit=claim.docs_commit,
        doc_files=len(coverage.doc_files),
        example_files=len(coverage.example_files),
        features=tuple(
            DocsFeatureDoc(
                number=f.feature.number,
                name=f.feature.name,
                group=f.feature.group,
                finding=f.finding,
                doc_hits=f.doc_count,
                example_hits=f.example_count,
                best_doc=_hit_doc(claim, f.best_doc),
                best_example=_hit_doc(claim, f.best_example),
                lifecycle=_lifecycle_text(f),
                blocking=f.blocking,
                where=tuple(
                    hit
                    for hit in (_hit_doc(claim, h) for h in (*f.doc_hits, *f.example_hits))
                    if hit is not None
                ),
            )
            for f in coverage.features
        ),
    )


def claim_document(claim: Claim) -> ClaimDocument:
    """`claim.json` as a typed document."""
    doc = claim.scorecard
    return ClaimDocument(
        schema_version=CLAIM_SCHEMA_VERSION,
        header=claim.header,
        repo=doc.repo,
        sdk=doc.sdk.name,
        commit=doc.sdk.commit,
        timestamp=doc.timestamp,
        requirements_revisions=tuple(doc.requirements_revisions),
        target_tier=claim.target_tier,
        tiers=claim.tiers,
        status=claim.status,
        implied_tier=doc.implied_tier.tier,
        sep1730_tier=doc.implied_tier.sep1730.tier,
        scorecard=claim.source,
        rows=tuple(_row_doc(row, claim.tiers) for row in claim.rows),
        conformance=claim.conformance,
        baseline=claim.baseline,
        reproduce=claim.reproduce,
        spec_by_date=claim.spec_by_date,
        changes=claim.changes,
        documentation=_documentation_doc(claim),
        scenarios=claim.scenarios,
        harness_comparison=doc.harness_comparison,
    )


def claim_to_dict(claim: Claim) -> dict[str, Any]:
    """`claim.json`: the header, the table, the claim's status and everything behind them."""
    data: dict[str, Any] = to_json(claim_document(claim))
    return data
