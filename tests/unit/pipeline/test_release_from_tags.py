"""The release the assessed commit carries, read from the checkout's tags, in the scorecard.

A real git repository shaped like tower-mcp's tags: commit A tagged `tower-mcp-v0.20.0`,
`tower-mcp-macros-v0.4.0` and (made up, so that the prefix decides) `tower-mcp-macros-v1.0.0`,
commit B tagged `tower-mcp-v0.21.0` and `tower-mcp-types-v0.9.0` (assessed), commit C tagged
`tower-mcp-v0.22.0` (after B, so not B's). By hand, with the prefix `tower-mcp-v`, B carries
tower-mcp-v0.21.0, version 0.21.0, not stable (0.x); without it, the macros' stable 1.0.0.
Governance is skipped, so the official `version` stays null and the header says where each
reading came from.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from support.gitutil import GitOrigin
from support.schema_check import conforms
from tiercheck.cli import main

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "tiercheck" / "schemas" / "scorecard.schema.json"
SHOWN = "version none from GitHub releases · tags: 0.21.0 (tower-mcp-v0.21.0)"


def _tower(path: Path) -> tuple[GitOrigin, str]:
    origin = GitOrigin(path)
    origin.commit({"README.md": "a\n"}, "A")
    origin.tag("tower-mcp-v0.20.0")
    origin.tag("tower-mcp-macros-v0.4.0")
    origin.tag("tower-mcp-macros-v1.0.0")
    assessed = origin.commit({"README.md": "b\n"}, "B")
    origin.tag("tower-mcp-v0.21.0")
    origin.tag("tower-mcp-types-v0.9.0")
    origin.commit({"README.md": "c\n"}, "C")
    origin.tag("tower-mcp-v0.22.0")
    return origin, assessed


def _assess(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any], Path]:
    out = tmp_path / "out"
    argv = [*args, "--skip-governance", "--no-history", "--probes", "none"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--out", str(out)]
    code = main(argv)
    doc = json.loads((out / "scorecard.json").read_text(encoding="utf-8"))
    conforms(doc, json.loads(SCHEMA.read_text(encoding="utf-8")))
    return code, doc, out


def test_a_checkout_records_the_release_its_commit_carries_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    origin, assessed = _tower(tmp_path / "tower-mcp")
    origin.git("checkout", "-q", assessed)
    code, doc, out = _assess(
        tmp_path,
        "--sdk-path",
        str(origin.path),
        "--repo",
        "joshrotenberg/tower-mcp",
        "--tag-prefix",
        "tower-mcp-v",
    )
    capsys.readouterr()
    assert code == 3  # nothing configured to run: every leg skipped
    assert doc["sdk"]["commit"] == assessed
    assert doc["sdk"]["release"] == {
        "tag": "tower-mcp-v0.21.0",
        "version": "0.21.0",
        "stable": False,
    }
    assert doc["version"] is None  # the official reading (GitHub releases) is untouched
    assert SHOWN in (out / "scorecard.txt").read_text(encoding="utf-8")
    assert f"**Version:** {SHOWN.removeprefix('version ')}" in (out / "scorecard.md").read_text(
        encoding="utf-8"
    )
    assert SHOWN in (out / "scorecard.html").read_text(encoding="utf-8")


def test_a_clone_reads_the_prefix_from_the_environment_like_the_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    origin, assessed = _tower(tmp_path / "origin")
    monkeypatch.setenv("TIERCHECK_TAG_PREFIX", "tower-mcp-v")
    _, doc, _ = _assess(tmp_path, "--sdk", f"acme/tower-mcp@{assessed}", "--git-url", origin.url)
    capsys.readouterr()
    assert doc["sdk"]["commit"] == assessed
    assert doc["sdk"]["release"]["tag"] == "tower-mcp-v0.21.0"


def test_a_folder_without_git_history_carries_no_release_silently(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "README.md").write_text("no git here\n", encoding="utf-8")
    _, doc, out = _assess(tmp_path, "--sdk-path", str(folder), "--repo", "acme/plain")
    err = capsys.readouterr().err
    assert doc["sdk"]["commit"] is None
    assert "release" not in doc["sdk"]
    assert "version none · " in (out / "scorecard.txt").read_text(encoding="utf-8")
    assert "tag" not in err.lower()


def test_a_tag_is_untrusted_text_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Git allows `<` and `>` in tag names; without a prefix the trailing
    # X.Y.Z of such a tag is its version, and the tag itself is shown beside it.
    origin = GitOrigin(tmp_path / "sdk")
    origin.commit({"README.md": "a\n"}, "A")
    origin.tag("<b>x</b>-v1.2.3")
    _, doc, out = _assess(tmp_path, "--sdk-path", str(origin.path), "--repo", "acme/sdk")
    capsys.readouterr()
    assert doc["sdk"]["release"] == {"tag": "<b>x</b>-v1.2.3", "version": "1.2.3", "stable": True}
    html = (out / "scorecard.html").read_text(encoding="utf-8")
    assert "<b>x</b>" not in html
    assert "tags: 1.2.3 (&lt;b&gt;x&lt;/b&gt;-v1.2.3)" in html
    markdown = (out / "scorecard.md").read_text(encoding="utf-8")
    assert "<b>x</b>" not in markdown
