"""The claim's header, title and tier: what the filed claims put first, on the sample SDK.

The checkout is a real git repository (a copy of examples/sample-sdk with a pyproject.toml
naming the package `sample-mcp`): commit A tagged v1.0.0, commit B tagged v1.1.0-rc.1, commit C
untagged and assessed. By hand: the release C carries is v1.0.0 (the newest *stable* tag in its
history; the rc is a pre-release), two commits after it (B and C), published on PyPI as
https://pypi.org/project/sample-mcp/1.0.0/.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest

from support.e2e import copy_sample, git
from support.schema_check import conforms
from support.scorecards import sample_scorecard
from tiercheck.claim.header import Manifest, language_of, registry_link
from tiercheck.claim.model import ClaimDocument
from tiercheck.claim.sources import read_manifest, read_release
from tiercheck.document_files import atomic_write_text
from tiercheck.model import from_json
from tiercheck.scorecard.render.json_format import render_json

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "tiercheck" / "schemas" / "claim.schema.json"


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("header")
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": str(tmp / "gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    path = copy_sample(tmp / "sample-sdk")
    (path / "pyproject.toml").write_text('[project]\nname = "sample-mcp"\nversion = "1.0.0"\n')
    git(path, "init", "-q", "-b", "main", env=env)
    git(path, "add", ".", env=env)
    git(path, "commit", "-q", "-m", "A", env=env)
    git(path, "tag", "-a", "v1.0.0", "-m", "v1.0.0", env=env)
    (path / "NOTES.md").write_text("# Notes\n")
    git(path, "add", ".", env=env)
    git(path, "commit", "-q", "-m", "B", env=env)
    git(path, "tag", "v1.1.0-rc.1", env=env)
    (path / "NOTES.md").write_text("# Notes\n\nMore.\n")
    git(path, "commit", "-q", "-am", "C", env=env)
    return path, git(path, "rev-parse", "HEAD", env=env)


def test_the_language_comes_from_the_repository_name() -> None:
    assert language_of("modelcontextprotocol/python-sdk", "python-sdk") == "Python"
    assert language_of("modelcontextprotocol/csharp-sdk", "csharp-sdk") == "C#"
    assert language_of("modelcontextprotocol/typescript-sdk", "typescript-sdk-v1") == "TypeScript"
    assert language_of("tiercheck/sample-sdk", "sample-sdk") == "Sample"


def test_registry_links_name_each_registry_s_own_version_page() -> None:
    assert registry_link(Manifest("pypi", "mcp"), "v2.0.0", "2.0.0") == (
        "PyPI",
        "https://pypi.org/project/mcp/2.0.0/",
    )
    # Go modules are versioned by tag: the filed Go claim links pkg.go.dev/…@v1.7.0.
    assert registry_link(
        Manifest("go", "github.com/modelcontextprotocol/go-sdk"), "v1.7.0", "1.7.0"
    ) == ("pkg.go.dev", "https://pkg.go.dev/github.com/modelcontextprotocol/go-sdk@v1.7.0")
    assert registry_link(Manifest("crates", "rmcp"), "rmcp-v1.0.0", "1.0.0") == (
        "crates.io",
        "https://crates.io/crates/rmcp/1.0.0",
    )
    assert registry_link(None, "v1.0.0", "1.0.0") is None


def test_the_checkout_gives_the_release_and_the_package(checkout: tuple[Path, str]) -> None:
    path, head = checkout
    fact = read_release(path, head, "v")
    assert fact is not None
    assert (fact.tag, fact.commits_after) == ("v1.0.0", 2)
    assert fact.date  # the annotated tag's date
    assert read_manifest(path) == Manifest("pypi", "sample-mcp")
    # The sample as shipped has no manifest, and a copy without git has no release.
    assert read_manifest(REPO / "examples" / "sample-sdk") is None
    assert read_release(REPO / "examples" / "sample-sdk" / "no-such", head, "v") is None


def _claim(tmp: Path, checkout: Path, head: str, *args: str) -> tuple[int, Path]:
    from tiercheck.cli.app import main

    doc = dataclasses.replace(
        sample_scorecard(),
        sdk=dataclasses.replace(sample_scorecard().sdk, commit=head, path=str(checkout)),
    )
    saved = atomic_write_text(tmp / "scorecard.json", render_json(doc))
    out = tmp / "claim"
    code = main(
        ["claim", "--from", str(saved), "--sdk-path", str(checkout), "--out", str(out), *args]
    )
    return code, out


def test_the_header_as_the_filed_claims_give_it(checkout: tuple[Path, str], tmp_path: Path) -> None:
    path, head = checkout
    code, out = _claim(tmp_path, path, head, "--previous-issue", "#2304", "--previous-tier", "1")
    data: dict[str, Any] = json.loads((out / "claim.json").read_text("utf-8"))
    conforms(data, json.loads(SCHEMA.read_text("utf-8")))
    header = from_json(ClaimDocument, data).header
    # The checkout's pyproject.toml says Python (the name "sample-sdk" names no language).
    assert header.title == "Python SDK — Tier 1 Assessment"
    assert header.release is not None
    assert (header.release.tag, header.release.version, header.release.commits_after) == (
        "v1.0.0",
        "1.0.0",
        2,
    )
    assert header.release.stable
    assert header.release.published_source == "git tag"  # no governance snapshot here
    assert header.release.registry_url == "https://pypi.org/project/sample-mcp/1.0.0/"
    assert (header.branch, header.commit, header.date) == ("main", head, "2026-08-20")
    assert header.requested_tier == 1
    assert header.previous is not None
    assert header.previous.url == (
        "https://github.com/modelcontextprotocol/modelcontextprotocol/issues/2304"
    )
    assert header.previous.tier == 1
    assert (header.harness, header.harness_version) == (
        "@modelcontextprotocol/conformance",
        "0.2.0-alpha.12",
    )
    assert header.revisions == ("2025-11-25", "2026-07-28")
    text = (out / "assessment.md").read_text("utf-8")
    lines = text.splitlines()
    assert lines[0] == "# Python SDK — Tier 1 Assessment"
    version = next(line for line in lines if line.startswith("**Version**"))
    assert version.startswith(
        "**Version**: [1.0.0](https://github.com/tiercheck/sample-sdk/releases/tag/v1.0.0) "
        "([PyPI](https://pypi.org/project/sample-mcp/1.0.0/))"
    )
    assert (
        f"[`{head[:12]}`](https://github.com/tiercheck/sample-sdk/commit/{head}) "
        "(2 commits after v1.0.0)"
    ) in version
    assert "**Assessed**: 2026-08-20" in text
    assert (
        "**Requested tier**: Tier 1 · previous assessment "
        "[#2304](https://github.com/modelcontextprotocol/modelcontextprotocol/issues/2304) "
        "(Tier 1)"
    ) in text
    assert "`@modelcontextprotocol/conformance 0.2.0-alpha.12`" in text
    assert "**Revisions scored**: 2025-11-25, 2026-07-28" in text
    assert code in (0, 1)


def test_a_tier_3_claim_shows_what_tier_2_and_tier_1_need(
    checkout: tuple[Path, str], tmp_path: Path
) -> None:
    path, head = checkout
    code, out = _claim(tmp_path, path, head, "--tier", "3")
    data = json.loads((out / "claim.json").read_text("utf-8"))
    assert data["header"]["title"] == "Python SDK — Tier 3 Assessment"
    assert data["tiers"] == [2, 1]
    # Tier 3 has no minimum: the claim can be filed whatever blocks the tiers above.
    assert (data["status"], code) == ("ready", 0)
    assert all(set(r["verdicts"]) == {"tier2", "tier1"} for r in data["rows"])


@pytest.mark.parametrize(
    "value", ["2304x", "https://example.com/issues/1", "https://github.com/a/b/issues/x"]
)
def test_a_bad_previous_issue_is_one_line(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    from tiercheck.cli.app import main

    assert main(["claim", "--from", "x.json", "--previous-issue", value]) == 2
    err = capsys.readouterr().err
    assert "--previous-issue" in err
    assert "Traceback" not in err
