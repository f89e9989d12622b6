"""Step 1, plan: what one assessment measures, decided before anything runs.

The plan names the revisions (each with its resolved configuration and requirement set), where
the code comes from, and the ref. `decide_ref` is the only place a ref or branch is chosen: the
checkout step receives the ref to check out, the scorecard the names it reports. Bad input (an
unknown revision, one the SDK does not claim, a broken configuration) raises here, before any
process starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from tiercheck.config.baseline_spec import check_claimed
from tiercheck.config.requirements import RequirementSet, load_requirement_set
from tiercheck.config.resolve import RevisionConfig, resolve
from tiercheck.errors import UsageError
from tiercheck.pipeline.assess.base import AssessOptions, Origin
from tiercheck.revisions import is_known_revision, known_revisions, unknown_revision
from tiercheck.target import STABLE_REF, Target

__all__ = [
    "Plan",
    "RefChoice",
    "RevisionPlan",
    "decide_ref",
    "origin_of",
    "plan_assessment",
    "plan_revisions",
]


@dataclass(frozen=True)
class RevisionPlan:
    """One revision to measure: its resolved configuration and requirement set."""

    revision: str
    config: RevisionConfig
    requirements: RequirementSet


@dataclass(frozen=True)
class RefChoice:
    """The ref an assessment is about.

    `checkout` is what a clone is detached at (None: origin's default branch; always None when
    nothing is cloned). `ref` and `branch` are what the scorecard reports as `sdk.ref` and
    `branch`.
    """

    checkout: str | None
    ref: str | None
    branch: str | None


@dataclass(frozen=True)
class Plan:
    """What one assessment measures, and from where."""

    target: Target
    origin: Origin
    ref: RefChoice
    revisions: tuple[RevisionPlan, ...]

    @property
    def tag_prefix(self) -> str:
        """The release tags' prefix (`tag_prefix` through the cascade: `--tag-prefix`, then
        TIERCHECK_TAG_PREFIX, then the registry entry); "" when none is set."""
        if self.revisions:
            return self.revisions[0].config.tag_prefix
        return self.target.entry.tag_prefix if self.target.entry else ""


def decide_ref(target: Target, origin: Origin, tree_branch: str | None = None) -> RefChoice:
    """Choose the ref to check out and the names the scorecard reports for it.

    clone: the ref named after `@`, else the registry entry's default ref, else origin's default
    branch (None); that one name is checked out and reported as both ref and branch.
    path: nothing is checked out. `tree_branch` is the branch the user's tree is on (None when
    detached or not a git checkout); the ref reported is the one named after `@`, else the tree's
    branch, and the branch reported is the tree's, else the named ref.
    url, results: nothing is checked out; the named ref (usually none) is reported as both.
    `stable` names the latest stable release, found among a clone's tags by the checkout: with
    any other origin it is a UsageError.
    """
    named = target.ref
    if named == STABLE_REF and origin != "clone":
        where = "--sdk-path" if origin == "path" else "--conformance-server-url"
        if origin == "results":
            where = "--server-results/--client-results"
        msg = (
            f"--sdk {target.name}@{STABLE_REF}: the latest stable release is found among the "
            f"tags of a clone, and {where} assesses code that is not cloned; drop {where} or "
            f"name the tag"
        )
        raise UsageError(msg)
    if origin == "clone":
        chosen = named or (target.entry.default_ref if target.entry else None)
        return RefChoice(checkout=chosen, ref=chosen, branch=chosen)
    if origin == "path":
        return RefChoice(checkout=None, ref=named or tree_branch, branch=tree_branch or named)
    return RefChoice(checkout=None, ref=named, branch=named)


def origin_of(options: AssessOptions) -> Origin:
    """A running server (`--conformance-server-url`), the user's checkout, or a clone."""
    if options.server_url is not None:
        return "url"
    return "path" if options.target.path is not None else "clone"


def plan_revisions(options: AssessOptions) -> list[RevisionPlan]:
    """Resolve each revision's configuration and requirement set (bad input raises here)."""
    entry, settings = options.target.entry, options.settings
    claimed = entry.revisions if entry else known_revisions()
    wanted = settings.revisions or claimed
    for revision in wanted:
        if not is_known_revision(revision):
            raise UsageError(f"--revision: {unknown_revision(revision)}")
        if revision not in claimed:
            msg = (
                f"--revision: {options.target.name} claims only {', '.join(claimed)}; "
                f"it is not assessed at {revision}"
            )
            raise UsageError(msg)
    check_claimed(settings.flags.baselines, options.target.name, claimed)
    plans = []
    for revision in wanted:
        config = resolve(entry, revision, environ=settings.environ, flags=settings.flags)
        plans.append(RevisionPlan(revision, config, load_requirement_set(revision)))
    return plans


def plan_assessment(options: AssessOptions) -> Plan:
    """The plan of one assessment: revisions, origin and ref.

    For the user's own checkout the branch it is on is read here (HEAD only, nothing changes),
    so the ref is decided once, before the checkout step runs.
    """
    revisions = tuple(plan_revisions(options))
    target, origin = options.target, origin_of(options)
    tree_branch = None
    if origin == "path" and target.path is not None:
        from tiercheck.sdk.checkout import current_branch

        tree_branch = current_branch(target.path)
    return Plan(target, origin, decide_ref(target, origin, tree_branch), revisions)
