"""The ref `stable`: the line's latest stable release, found among the tags of a real clone.

The tags are chosen so that every wrong rule picks another one: a plain string sort picks
`v1.9.0` over `v1.10.0`; counting a pre-release picks `v2.0.0-rc.1`; ignoring the prefix picks
`other-v9.0.0`; counting build metadata picks `v1.11.0+build.7`; counting a 0.x release picks
nothing else here but `v0.9.0` alone.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from support.gitutil import GitOrigin
from tiercheck.config.registry import load_registry
from tiercheck.errors import CheckoutError, UsageError
from tiercheck.governance.signals import SignalConfig
from tiercheck.governance.signals.stable_release import stable_release_signal
from tiercheck.governance.snapshot import (
    IssueFacts,
    LabelFacts,
    PolicyFileFacts,
    Release,
    ReleaseFacts,
    Snapshot,
)
from tiercheck.pipeline.assess.base import AssessOptions, RunSettings, Unmeasured
from tiercheck.pipeline.assess.checkout import check_out
from tiercheck.pipeline.assess.plan import decide_ref, plan_assessment
from tiercheck.pipeline.assess.silent import NullProgress
from tiercheck.sdk import checkout as checkout_module
from tiercheck.sdk.checkout import checkout, worktree_path
from tiercheck.target import STABLE_REF, Target, latest_stable_tag, stable_version

pytestmark = pytest.mark.usefixtures("isolated_git")

REPO = "acme/widget-sdk"


@pytest.fixture(autouse=True)
def no_retry_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkout_module, "NETWORK_WAIT_MIN_S", 0.0)


# --- the rule, on tag names -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tags", "prefix", "expected"),
    [
        # SemVer order, not string order: 1.10.0 > 1.9.0.
        (["v1.9.0", "v1.10.0", "v1.2.0"], "", "v1.10.0"),
        # A higher pre-release (any suffix) and build metadata never count.
        (["v1.2.0", "v2.0.0-rc.1", "v1.3.0-alpha", "v1.4.0+build.7"], "", "v1.2.0"),
        # SEP-1730: "1.0.0 or higher": a 0.x release is not a stable release.
        (["v0.9.0", "v0.10.0"], "", None),
        (["v0.9.0", "v1.0.0"], "", "v1.0.0"),
        # With a prefix only `<prefix>X.Y.Z` counts, exactly.
        (
            ["tower-mcp-v1.4.0", "tower-mcp-v1.5.0-beta.2", "v3.0.0", "other-v9.0.0"],
            "tower-mcp-v",
            "tower-mcp-v1.4.0",
        ),
        (
            ["xtower-mcp-v2.0.0", "tower-mcp-v1.4.0.1", "tower-mcp-v1.4.0"],
            "tower-mcp-v",
            "tower-mcp-v1.4.0",
        ),
        # Without a prefix: the trailing X.Y.Z, on a version boundary.
        (["pkg@1.2.3", "release-2.0.0", "v112.3.4x"], "", "release-2.0.0"),
        ([], "", None),
        (["nightly", "latest", "v1", "v1.2"], "", None),
        # Two tags of one version: the choice does not depend on the order git lists them.
        (["v1.2.0", "1.2.0"], "", "v1.2.0"),
        (["1.2.0", "v1.2.0"], "", "v1.2.0"),
    ],
)
def test_latest_stable_tag(tags: list[str], prefix: str, expected: str | None) -> None:
    assert latest_stable_tag(tags, prefix) == expected


def test_stable_version_reads_the_three_numbers() -> None:
    assert stable_version("rmcp-v3.0.1", "rmcp-v") is not None
    assert stable_version("rmcp-v3.0.1", "v") is None  # the prefix must start the tag
    assert stable_version("v01.2.3") is None  # no leading zeros, and 1.2.3 is not at a boundary


#: Tags and, worked out by hand from SEP-1730's "Stable Release" (plain X.Y.Z, X >= 1, no
#: pre-release, no build metadata; after the prefix, or a trailing version on a boundary), the
#: version each names as a stable release.
READINGS = [
    ("v1.2.3", "", "1.2.3"),
    ("pkg@2.0.0", "", "2.0.0"),
    ("server/v10.0.1", "", "10.0.1"),
    ("v0.9.0", "", None),
    ("v1.2.0-rc.1", "", None),
    ("v1.11.0+build.7", "", None),
    ("v112.3.4x", "", None),
    ("v01.2.3", "", None),
    ("v1.2", "", None),
    ("v1.2.3", "v", "1.2.3"),
    ("rmcp-v3.0.1", "rmcp-v", "3.0.1"),
    ("rmcp-macros-v3.0.1", "rmcp-v", None),
    ("rmcp-v3.0.1", "v", None),
    ("v1.2.3\u0663", "", None),  # ARABIC-INDIC DIGIT THREE is no [0-9]
]


@pytest.mark.parametrize(("tag", "prefix", "expected"), READINGS)
def test_the_stable_ref_and_the_stable_release_signal_read_a_tag_alike(
    tag: str, prefix: str, expected: str | None
) -> None:
    # One rule: `@stable` picks among tags what the SEP-1730 stable-release reading counts.
    found = stable_version(tag, prefix)
    assert (f"{found.major}.{found.minor}.{found.patch}" if found else None) == expected
    when = datetime(2026, 1, 5, tzinfo=UTC)
    release = Release(tag, None, draft=False, prerelease=False, created_at=when, published_at=when)
    snapshot = Snapshot(
        repo=REPO,
        captured_at=when,
        api_base="http://127.0.0.1",
        authenticated=True,
        labels=LabelFacts(names=(), uses_issue_types=False),
        issues=IssueFacts(issues=(), truncated=False, timeline_reason=None),
        releases=ReleaseFacts(releases=(release,), truncated=False),
        spec_releases=ReleaseFacts(releases=(), truncated=False),
        policy_files=PolicyFileFacts(paths=(), source="git-tree", truncated=False),
    )
    sep = stable_release_signal(snapshot, SignalConfig(tag_prefix=prefix or None)).sep1730
    assert sep.version == expected
    assert sep.is_stable is (expected is not None)


# --- the checkout, against a real repository --------------------------------------------------


@pytest.fixture
def origin(tmp_path: Path) -> GitOrigin:
    """Releases on a line of commits; `main` has moved on past every one of them."""
    origin = GitOrigin(tmp_path / "origin")
    shas: dict[str, str] = {}
    for tag in ("v0.9.0", "v1.9.0", "v1.10.0", "v2.0.0-rc.1", "v1.11.0+build.7", "other-v9.0.0"):
        shas[tag] = origin.commit({"VERSION": f"{tag}\n"}, tag)
        origin.tag(tag)
    origin.commit({"VERSION": "main\n"}, "unreleased work")
    origin.shas = shas  # type: ignore[attr-defined]
    return origin


def test_stable_checks_out_the_highest_stable_tag(origin: GitOrigin, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    result = checkout(REPO, STABLE_REF, cache_dir=cache, git_url=origin.url, tag_prefix="v")
    assert result.tag == "v1.10.0"
    assert result.commit_sha == origin.shas["v1.10.0"]  # type: ignore[attr-defined]
    assert result.ref == STABLE_REF
    assert (result.path / "VERSION").read_text() == "v1.10.0\n"
    assert result.path == worktree_path(REPO, STABLE_REF, cache)


def test_without_a_prefix_any_trailing_version_counts(origin: GitOrigin, tmp_path: Path) -> None:
    result = checkout(REPO, STABLE_REF, cache_dir=tmp_path / "cache", git_url=origin.url)
    assert result.tag == "other-v9.0.0"


def test_any_other_ref_resolves_no_tag(origin: GitOrigin, tmp_path: Path) -> None:
    result = checkout(REPO, "v1.9.0", cache_dir=tmp_path / "cache", git_url=origin.url)
    assert result.tag is None
    assert (result.path / "VERSION").read_text() == "v1.9.0\n"


def test_the_prefix_of_the_line_is_honoured(origin: GitOrigin, tmp_path: Path) -> None:
    origin.commit({"VERSION": "tower-mcp-v1.2.0\n"}, "tower")
    origin.tag("tower-mcp-v1.2.0")
    origin.commit({"VERSION": "tower-mcp-v1.3.0-alpha.1\n"}, "tower pre")
    origin.tag("tower-mcp-v1.3.0-alpha.1")
    result = checkout(
        REPO, STABLE_REF, cache_dir=tmp_path / "cache", git_url=origin.url, tag_prefix="tower-mcp-v"
    )
    assert result.tag == "tower-mcp-v1.2.0"
    assert (result.path / "VERSION").read_text() == "tower-mcp-v1.2.0\n"


def test_a_new_release_is_followed_on_the_next_run(origin: GitOrigin, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = checkout(REPO, STABLE_REF, cache_dir=cache, git_url=origin.url, tag_prefix="v")
    assert first.tag == "v1.10.0"
    sha = origin.commit({"VERSION": "v1.12.0\n"}, "release")
    origin.tag("v1.12.0")
    again = checkout(REPO, STABLE_REF, cache_dir=cache, git_url=origin.url, tag_prefix="v")
    assert (again.tag, again.commit_sha) == ("v1.12.0", sha)
    assert (again.path / "VERSION").read_text() == "v1.12.0\n"


def test_no_stable_tag_is_one_line_naming_the_rule(tmp_path: Path) -> None:
    origin = GitOrigin(tmp_path / "origin")
    origin.commit({"VERSION": "x\n"}, "first")
    origin.tag("v0.4.0")
    origin.tag("v1.0.0-rc.2")
    with pytest.raises(CheckoutError) as caught:
        checkout(REPO, STABLE_REF, cache_dir=tmp_path / "cache", git_url=origin.url)
    message = str(caught.value)
    assert "\n" not in message
    assert message == (
        "acme/widget-sdk has no stable release to assess at @stable: none of its 2 tags is "
        "a tag ending in X.Y.Z with X >= 1 and no pre-release suffix (SEP-1730's stable release)"
    )


# --- the pipeline: the tag travels, and no stable tag is an unmeasured entry ------------------


def _options(tmp_path: Path, ref: str, *, path: Path | None = None) -> AssessOptions:
    entry = load_registry().get("sample-sdk")  # tag_prefix: v
    target = Target(name="sample-sdk", repo=REPO, ref=ref, entry=entry, path=path)
    return AssessOptions(
        target=target,
        settings=RunSettings(cache_dir=tmp_path / "cache", revisions=("2025-11-25",)),
        out_dir=tmp_path / "out",
    )


def test_the_check_out_step_reports_the_tag(
    origin: GitOrigin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIERCHECK_GIT_BASE", origin.url.replace("/origin", "/{repo}"))
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "widget-sdk").symlink_to(origin.path)
    options = _options(tmp_path, STABLE_REF)
    plan = plan_assessment(options)
    assert (plan.ref.checkout, plan.ref.ref) == (STABLE_REF, STABLE_REF)
    result = check_out(options, plan, NullProgress())
    assert result.halt is None
    assert result.tag == "v1.10.0"
    # the line's prefix `v` leaves `other-v9.0.0` out
    assert result.commit == origin.shas["v1.10.0"]  # type: ignore[attr-defined]


def test_no_stable_tag_is_the_checkouts_unmeasured_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    origin = GitOrigin(tmp_path / "acme" / "widget-sdk")
    origin.commit({"VERSION": "x\n"}, "first")
    origin.tag("v2.0.0-beta.1")
    monkeypatch.setenv("TIERCHECK_GIT_BASE", (tmp_path.resolve().as_uri()) + "/{repo}")
    options = _options(tmp_path, STABLE_REF)
    result = check_out(options, plan_assessment(options), NullProgress())
    reason = (
        "checkout failed: acme/widget-sdk has no stable release to assess at @stable: none of "
        "its 1 tags is vX.Y.Z with X >= 1 and no pre-release suffix (SEP-1730's stable release)"
    )
    assert result.path is None
    assert result.halt == reason
    assert result.unmeasured == (Unmeasured("checkout", reason),)


@pytest.mark.parametrize("origin_kind", ["path", "url", "results"])
def test_stable_needs_a_clone(origin_kind: str, tmp_path: Path) -> None:
    target = Target(name="go-sdk", repo=REPO, ref=STABLE_REF, entry=None, path=tmp_path)
    with pytest.raises(UsageError, match=r"^--sdk go-sdk@stable: the latest stable release"):
        decide_ref(target, origin_kind)  # type: ignore[arg-type]
