"""Step 2, checkout: the SDK's code at a known commit, or why it could not be had.

A clone is detached at the ref the plan chose; the user's own checkout (`--sdk-path`) is only
described, never changed. A failure is not raised: it becomes the step's unmeasured entry and
the reason no leg can run. Either way the step reads the release the commit carries from the
checkout's own tags (`target.choose_release_tag` with the resolved `tag_prefix`); a folder with
no git history carries none.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from tiercheck.errors import TiercheckError
from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink, Unmeasured, elapsed
from tiercheck.pipeline.assess.plan import Plan
from tiercheck.scorecard.model import SdkRelease
from tiercheck.target import choose_release_tag, parse_release_version

__all__ = ["CheckoutResult", "check_out", "read_release", "working_tree_lock"]


@dataclass(frozen=True)
class CheckoutResult:
    """Where the code is and at which commit (`path` None: the checkout failed, see `halt`)."""

    path: Path | None
    commit: str | None
    unmeasured: tuple[Unmeasured, ...] = ()
    #: The branch a clone without a named ref is on: origin's default branch.
    branch: str | None = None
    #: The tag a `stable` ref resolved to (the line's latest stable release).
    tag: str | None = None
    #: The release the commit carries, read from the checkout's tags (None: no git history or
    #: no tag names a version).
    release: SdkRelease | None = None
    timings: Mapping[str, float] = field(default_factory=dict)
    #: Why no leg can run after this step; None when they can.
    halt: str | None = None


def check_out(options: AssessOptions, plan: Plan, progress: ProgressSink) -> CheckoutResult:
    """Describe the user's checkout, or detach the cached clone at `plan.ref.checkout`."""
    from tiercheck.sdk.checkout import checkout, describe_local

    target = plan.target
    began = time.monotonic()
    try:
        if target.path is not None:
            local = describe_local(target.path)
            progress.done("checkout", f"{target.path} at {local.short_sha or 'no git commit'}")
            return CheckoutResult(
                target.path,
                local.commit_sha,
                timings={"checkout": elapsed(began)},
                release=read_release(target.path, local.commit_sha, plan.tag_prefix),
            )
        ref = plan.ref.checkout
        progress.step("checkout", f"{target.repo}@{ref or 'default branch'}")
        settings = options.settings
        cloned = checkout(
            target.repo,
            ref,
            cache_dir=settings.cache_dir / "repos",
            git_url=settings.git_url,
            tag_prefix=plan.tag_prefix,
        )
        branch = cloned.branch if ref is None else None
        shown = ref or branch or "default branch"
        if cloned.tag is not None:
            shown = f"{shown} ({cloned.tag})"
        progress.done("checkout", f"{target.repo}@{shown} is {cloned.short_sha}")
        return CheckoutResult(
            cloned.path,
            cloned.commit_sha,
            timings={"checkout": elapsed(began)},
            branch=branch,
            tag=cloned.tag,
            release=read_release(cloned.path, cloned.commit_sha, plan.tag_prefix),
        )
    except TiercheckError as exc:
        reason = f"checkout failed: {exc.message}"
        return CheckoutResult(None, None, unmeasured=(Unmeasured("checkout", reason),), halt=reason)


def read_release(path: Path, commit: str | None, tag_prefix: str | None) -> SdkRelease | None:
    """The release `commit` carries, from the tags in its history at `path` (`tags_merged`),
    chosen by the claim's rule (`choose_release_tag`); None, silently, without a commit (a
    folder that is no git repository) or without a tag that names a version."""
    from tiercheck.sdk.checkout import tags_merged

    if not commit:
        return None
    chosen = choose_release_tag(tags_merged(path, commit), tag_prefix)
    if chosen is None:
        return None
    tag = chosen[0]
    version = parse_release_version(tag, tag_prefix or None)
    if version is None:  # never: the choice kept only tags that name a version
        return None
    return SdkRelease(tag=tag, version=version.text, stable=version.is_stable)


def working_tree_lock(
    options: AssessOptions, plan: Plan, progress: ProgressSink
) -> AbstractContextManager[object]:
    """The lock on the tree this assessment checks out, builds and runs in (see
    `sdk.checkout.tree_lock`); held from before the checkout until the legs are done."""
    from tiercheck.sdk.checkout import tree_lock, worktree_path

    target = plan.target
    if target.path is not None:
        tree = target.path
    elif target.repo is not None:
        tree = worktree_path(target.repo, plan.ref.checkout, options.settings.cache_dir / "repos")
    else:
        return nullcontext()

    def waiting() -> None:
        progress.step("checkout", f"waiting for another run that uses {tree}")

    return tree_lock(tree, lock_dir=options.settings.cache_dir / "locks", on_wait=waiting)
