"""A claim reads nothing outside the SDK's checkout, whatever symbolic links the checkout holds.

A real git checkout whose `docs/`, `.github/` and `baselines/` are links to folders outside it,
and whose `ROADMAP.md`, `HOSTNAME.md`, `pyproject.toml` and a file named like markup are links
to files outside it. Every outside file carries a marker; the claim is built by the real
`tier-check claim --from` (and with `--docs-ref`, which reads git's objects), and no marker, and
no outside path, appears in anything it writes. Row 5 counts the links in its finding and names
them by their own path in its evidence.
Links that stay inside: the walk follows none (the target is read at its own path), a policy
path goes through one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from support.gitutil import GitOrigin, isolated_git
from support.scorecards import edited, mixed_scorecard
from tiercheck.claim.policies import POLICY_PATHS
from tiercheck.claim.sources import read_baselines, read_manifest, read_tree
from tiercheck.document_files import atomic_write_text
from tiercheck.scorecard.render.json_format import render_json

__all__ = ["isolated_git"]

#: Text found only outside the checkout: none of it may reach a claim.
MARKERS = ("SECRET-LEAK-7f3a", "HOST-LEAK-91c2", "leaked-package", "BASELINE-LEAK-5d0e")
MARKUP_NAME = "<img src=x onerror=alert(1)>.md"

OUTSIDE_DOCS = {
    "secret.md": "# Tools\n\nSECRET-LEAK-7f3a: call `list_tools()` with the key.\n",
    "dependency-policy.md": (
        "# Dependencies\n\nWe will update every dependency within 7 days (SECRET-LEAK-7f3a).\n"
        "Dependabot opens each update. Each one is reviewed by a maintainer.\n"
    ),
    "roadmap.md": "# Roadmap\n\nWe will ship the next revision in May (SECRET-LEAK-7f3a).\n",
}
BASELINE = "server: []\nclient:\n  - auth/scope-step-up  # BASELINE-LEAK-5d0e\n"
CONTRIBUTING = """\
# Contributing

## Versioning

Releases follow semantic versioning for every public package. A breaking change will only ship
in a major release. Each breaking change is announced in the release notes a week before.
"""


def _outside(root: Path) -> Path:
    outside = root / "outside"
    (outside / "docs").mkdir(parents=True)
    for name, text in OUTSIDE_DOCS.items():
        (outside / "docs" / name).write_text(text)
    (outside / "hostname").write_text("HOST-LEAK-91c2\n")
    (outside / "github").mkdir()
    (outside / "github" / "dependabot.yml").write_text(
        "# SECRET-LEAK-7f3a\nversion: 2\nupdates:\n  - package-ecosystem: pip\n"
    )
    (outside / "baselines").mkdir()
    (outside / "baselines" / "example-sdk-2025-11-25.yaml").write_text(BASELINE)
    (outside / "pyproject.toml").write_text('[project]\nname = "leaked-package"\n')
    return outside


class Checkout(NamedTuple):
    """The SDK's checkout, the folder outside it that its links lead to, and its commit."""

    sdk: Path
    outside: Path
    head: str


@pytest.fixture
def checkout(tmp_path: Path, isolated_git: None) -> Checkout:
    """A checkout whose links lead out of it (committed, and tagged as a release)."""
    outside = _outside(tmp_path)
    origin = GitOrigin(tmp_path / "sdk")
    sdk = origin.path
    origin.commit(
        {
            "README.md": "# example-sdk\n\nCall `list_tools()` to list a server's tools.\n",
            "guide/contributing.md": CONTRIBUTING,
        }
    )
    links = {
        "docs": outside / "docs",
        ".github": outside / "github",
        "baselines": outside / "baselines",
        "ROADMAP.md": outside / "docs" / "roadmap.md",
        "HOSTNAME.md": outside / "hostname",
        "pyproject.toml": outside / "pyproject.toml",
        MARKUP_NAME: outside / "hostname",
        # Inside: a policy path read through it, a page the walk leaves to its target.
        "CONTRIBUTING.md": Path("guide/contributing.md"),
        "guide/readme-again.md": Path("../README.md"),
    }
    for name, target in links.items():
        (sdk / name).symlink_to(target)
    origin.git("add", "-A")
    origin.git(
        "-c", "user.name=Tier Check", "-c", "user.email=t@example.invalid", "commit", "-qm", "links"
    )
    origin.tag("v1.0.0")  # a release: the header would link its package from the manifest
    return Checkout(sdk, outside, origin.head)


LINKS_OUT = (".github", "HOSTNAME.md", MARKUP_NAME, "ROADMAP.md", "baselines", "docs")


def test_read_tree_follows_no_link_out_and_names_each(checkout: Checkout) -> None:
    tree = read_tree(checkout.sdk, POLICY_PATHS)
    assert tree.links_out == tuple(sorted((*LINKS_OUT, "pyproject.toml")))
    assert set(tree.texts) == {"README.md", "guide/contributing.md", "CONTRIBUTING.md"}
    assert tree.kinds["CONTRIBUTING.md"] == "policy"  # through a link that stays inside
    assert not any(marker in text for text in tree.texts.values() for marker in MARKERS)


def test_manifests_and_baselines_through_a_link_out_are_not_read(checkout: Checkout) -> None:
    sdk, outside, _ = checkout
    assert read_manifest(sdk) is None
    name = "baselines/example-sdk-2025-11-25.yaml"
    found = read_baselines(sdk, [name, str(sdk / name)])
    assert found[name].text is None
    assert found[str(sdk / name)].text is None
    # The operator's own file outside the checkout is read as given.
    own = outside / "baselines" / "example-sdk-2025-11-25.yaml"
    assert read_baselines(sdk, [str(own)])[str(own)].text == BASELINE


def _saved_scorecard(tmp_path: Path, checkout: Checkout) -> Path:
    def at_checkout(data: dict[str, Any]) -> None:
        data["sdk"] = {**data["sdk"], "path": str(checkout.sdk), "commit": checkout.head}

    doc = edited(mixed_scorecard(), at_checkout)
    return atomic_write_text(tmp_path / "scorecard.json", render_json(doc))


@pytest.mark.parametrize("docs_ref", [None, "main"])
def test_the_claim_quotes_nothing_from_outside_the_checkout(
    checkout: Checkout, tmp_path: Path, docs_ref: str | None
) -> None:
    from tiercheck.cli.app import main

    saved = _saved_scorecard(tmp_path, checkout)
    out = tmp_path / "claim"
    argv = ["claim", "--from", str(saved), "--out", str(out)]
    main([*argv, "--docs-ref", docs_ref] if docs_ref else argv)
    written = {p.name: p.read_text("utf-8") for p in out.iterdir()}
    assert {"assessment.md", "claim.json", "claim.html", "remediation.md"} <= set(written)
    for name, text in written.items():
        for marker in (*MARKERS, str(checkout.outside), "hostname"):
            assert marker not in text, f"{marker!r} in {name}"
    data = json.loads(written["claim.json"])
    rows = {row["id"]: row for row in data["rows"]}
    evidence = [line["text"] for line in rows["5"]["evidence"]]
    assert (
        f"not read: {len(LINKS_OUT) + 1} symbolic links leading out of the checkout "
        f"({', '.join(sorted((*LINKS_OUT, 'pyproject.toml')))})"
    ) in evidence
    # The policies read at the checkout: no roadmap or dependency policy, the versioning
    # section of CONTRIBUTING.md through the link that stays inside it.
    assert rows["7"]["verdicts"]["tier1"] == "fail"
    assert rows["6"]["verdicts"]["tier1"] == "fail"
    assert rows["8"]["verdicts"]["tier1"] == "needs review"
    assert data["header"]["release"]["tag"] == "v1.0.0"
    assert data["header"]["release"]["registry"] is None  # the manifest is a link out
    assert "CONTRIBUTING.md#L3" in rows["8"]["evidence"][0]["text"]
    assert rows["5"]["current"].endswith("; 7 symbolic links out of the checkout not read")
    assert "7 symbolic links out of the checkout not read" in written["assessment.md"]
    assert "<img src=x" not in written["claim.html"]
