"""The release a commit carries (`target.choose_release_tag`): one rule for the claim's header
and the scorecard's `sdk.release`. Tag lists are written by hand; the expected choices are read
off them by hand."""

from __future__ import annotations

import pytest

from tiercheck.target import choose_release_tag

#: tower-mcp's workspace tags: the SDK's own (`tower-mcp-v…`) and its crates' (macros, types).
TOWER = [
    ("tower-mcp-macros-v0.4.0", "d-macros"),
    ("tower-mcp-v0.20.0", "d20"),
    ("tower-mcp-types-v0.9.0", "d-types"),
    ("tower-mcp-v0.21.0", "d21"),
    ("tower-mcp-v0.21.0-rc.1", "d21rc"),
]


def test_the_prefix_picks_only_the_sdks_own_tags() -> None:
    # 0.21.0 is the highest of the three tower-mcp-v tags; the crates' tags (0.4.0, 0.9.0) and
    # the pre-release of the same number rank below it.
    assert choose_release_tag(TOWER, "tower-mcp-v") == ("tower-mcp-v0.21.0", "d21")
    # `tower-mcp-` as the prefix leaves `v0.21.0`, which is no X.Y.Z: nothing is chosen.
    assert choose_release_tag(TOWER, "tower-mcp-") is None
    # Another crate's prefix picks that crate's tag, never the SDK's.
    assert choose_release_tag(TOWER, "tower-mcp-macros-v") == (
        "tower-mcp-macros-v0.4.0",
        "d-macros",
    )


def test_without_a_prefix_every_trailing_version_counts() -> None:
    # The crates' tags are versions too: types' 0.9.0 is not above 0.21.0 (minor 9 < 21), so
    # the highest is still the SDK's, by number, not by text.
    assert choose_release_tag(TOWER, None) == ("tower-mcp-v0.21.0", "d21")
    assert choose_release_tag(TOWER, "") == ("tower-mcp-v0.21.0", "d21")
    # With a crate ahead by number, the unprefixed reading takes it: why the prefix matters.
    ahead = [*TOWER, ("tower-mcp-types-v0.30.0", "d30")]
    assert choose_release_tag(ahead, None) == ("tower-mcp-types-v0.30.0", "d30")
    assert choose_release_tag(ahead, "tower-mcp-v") == ("tower-mcp-v0.21.0", "d21")


def test_a_stable_release_wins_over_higher_pre_releases_and_0x() -> None:
    tags = [("v0.9.0", "d0"), ("v1.0.0", "d1"), ("v1.1.0-rc.1", "d2"), ("nightly", "d3")]
    assert choose_release_tag(tags, "v") == ("v1.0.0", "d1")
    # Build metadata is not SEP-1730's plain X.Y.Z: 1.2.0+build.5 is not stable, 1.0.0 is.
    assert choose_release_tag([("v1.0.0", "a"), ("v1.2.0+build.5", "b")], "v") == ("v1.0.0", "a")


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        # No stable tag: the highest version at all, pre-release or not.
        ([("v0.3.0", "a"), ("v0.4.0-rc.1", "b")], ("v0.4.0-rc.1", "b")),
        # Of one number, the plain release ranks above its pre-release.
        ([("v0.4.0", "a"), ("v0.4.0-rc.1", "b")], ("v0.4.0", "a")),
        # 0.x versions are ordered by number: 0.10.0 above 0.9.0.
        ([("v0.10.0", "a"), ("v0.9.0", "b")], ("v0.10.0", "a")),
        # An empty date is no date.
        ([("v0.1.0", "")], ("v0.1.0", None)),
        # No tag names a version, or no tags at all.
        ([("latest", "a"), ("v1", "b")], None),
        ([], None),
    ],
)
def test_without_a_stable_release_the_highest_version(
    tags: list[tuple[str, str]], expected: tuple[str, str | None] | None
) -> None:
    assert choose_release_tag(tags, "v") == expected


def test_a_prefix_keeps_another_packages_tags_out() -> None:
    # rust-sdk's rmcp-v… beside a stray v9.0.0.
    assert choose_release_tag([("rmcp-v1.0.0", "a"), ("v9.0.0", "b")], "rmcp-v") == (
        "rmcp-v1.0.0",
        "a",
    )
    assert choose_release_tag([("latest", "a")], None) is None
