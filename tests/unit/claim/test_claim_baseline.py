"""The baseline section: every expected failure with its reason, or an explicit none.

The sample SDK's own baselines (examples/sample-sdk/expected-failures.<revision>.yml) list no
entry, and the sample passes every scored scenario: the section must say none. A second
checkout carries a baseline written here with comments, worked by hand below.
"""

from __future__ import annotations

from pathlib import Path

from support.scorecards import R1, R2, sample_scorecard
from tiercheck.claim.baseline import entry_comments
from tiercheck.claim.markdown import render_assessment
from tiercheck.claim.pack import ClaimContext, build_claim
from tiercheck.claim.sources import read_baselines
from tiercheck.config.baseline import load_baseline

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "examples" / "sample-sdk"

#: Ours, in the shape the SDKs write theirs (go-sdk's conformance/baseline.yml): a comment
#: opens a group of entries, one entry has a comment of its own.
BASELINE = """\
# Known failures of this SDK at 2026-07-28.
server:
  - tools-list  # fixed in 1.0.1; left here on purpose

client:
  # The OIDC issuer check is not implemented yet
  # (tracked in #41).
  - auth/iss-supported
  - auth/dpop
  - auth/dpop-nonce

  - auth/wif-jwt-bearer
"""


def test_each_entry_gets_its_own_comment_or_its_group_s() -> None:
    got = entry_comments(BASELINE)
    assert got == {
        ("server", 0): (3, "fixed in 1.0.1; left here on purpose"),
        ("client", 0): (8, "The OIDC issuer check is not implemented yet (tracked in #41)."),
        ("client", 1): (9, "The OIDC issuer check is not implemented yet (tracked in #41)."),
        ("client", 2): (10, "The OIDC issuer check is not implemented yet (tracked in #41)."),
        # After a blank line the group's comment no longer applies.
        ("client", 3): (12, None),
    }


def _claim(doc, root: Path | None):  # type: ignore[no-untyped-def]
    files = doc.baseline.files.values() if doc.baseline else ()
    context = ClaimContext(baselines=read_baselines(root, files))
    return build_claim(doc, target_tier=1, snapshot=None, tree=None, context=context)


def test_the_sample_s_empty_baselines_say_none() -> None:
    baselines = {
        rev: (
            f"expected-failures.{rev}.yml",
            load_baseline(SAMPLE / f"expected-failures.{rev}.yml"),
        )
        for rev in (R1, R2)
    }
    claim = _claim(sample_scorecard(baselines=baselines), SAMPLE)
    assert claim.baseline.empty
    assert [(f.path, f.revisions, f.entries) for f in claim.baseline.files] == [
        ("expected-failures.2025-11-25.yml", (R1,), 0),
        ("expected-failures.2026-07-28.yml", (R2,), 0),
    ]
    text = render_assessment(claim)
    section = text[text.index("## Baseline") :]
    assert "None: no entry is listed and no scored scenario failed outside the baseline" in section


def test_no_baseline_file_is_an_explicit_none_too() -> None:
    text = render_assessment(_claim(sample_scorecard(), SAMPLE))
    assert "None: no expected-failures file is configured for this SDK line" in text


def test_every_entry_with_its_outcome_and_reason(tmp_path: Path) -> None:
    (tmp_path / "conformance").mkdir()
    (tmp_path / "conformance" / "baseline.yml").write_text(BASELINE)
    path = "conformance/baseline.yml"
    doc = sample_scorecard(
        failing={(R2, "client", "auth/iss-supported"): "issuer not checked"},
        baselines={R2: (path, load_baseline(tmp_path / path))},
    )
    claim = _claim(doc, tmp_path)
    got = {
        (i.entry, i.leg): (i.revisions, i.outcome, i.scored, i.reason) for i in claim.baseline.items
    }
    reason = "The OIDC issuer check is not implemented yet (tracked in #41)."
    # The file's own `#41` would name an issue of whichever repository shows the claim.
    shown = "The OIDC issuer check is not implemented yet (tracked in `#41).`"
    assert got == {
        # tools-list passes at 2026-07-28: the entry is stale.
        ("tools-list", "server"): ((R2,), "stale", True, "fixed in 1.0.1; left here on purpose"),
        # Scored and failing, as listed: an expected failure.
        ("auth/iss-supported", "client"): ((R2,), "expected-failure", True, reason),
        # Not in the 2026-07-28 requirement set: never run as scored.
        ("auth/dpop", "client"): ((R2,), "not-run", False, reason),
        ("auth/dpop-nonce", "client"): ((R2,), "not-run", False, reason),
        ("auth/wif-jwt-bearer", "client"): ((R2,), "not-run", False, None),
    }
    assert (
        claim.baseline.expected_failures,
        claim.baseline.unexpected_failures,
        claim.baseline.stale,
    ) == (1, 0, 1)
    item = next(i for i in claim.baseline.items if i.entry == "auth/iss-supported")
    assert item.url == (
        "https://github.com/tiercheck/sample-sdk/blob/3f9a2c41d7e0b5a8c6f1e2d3b4a59687c0d1e2f3/"
        "conformance/baseline.yml#L8"
    )
    text = render_assessment(claim)
    assert (
        f"| [`auth/iss-supported`]({item.url}) | client | 2026-07-28 | expected failure | yes | "
        f"{shown} |"
    ) in text
    assert "Expected failures: 1; unexpected failures: 0; stale entries: 1." in text
    # Entries that share their group's comment and outcome share a row, the reason given once.
    dpop = next(i for i in claim.baseline.items if i.entry == "auth/dpop")
    nonce = next(i for i in claim.baseline.items if i.entry == "auth/dpop-nonce")
    assert (
        f"| [`auth/dpop`]({dpop.url}), [`auth/dpop-nonce`]({nonce.url}) | client | 2026-07-28 | "
        f"not run on the client leg at 2026-07-28 | no | {shown} |"
    ) in text


def test_one_file_at_both_revisions_is_one_row_per_entry(tmp_path: Path) -> None:
    # go-sdk's way: one baseline for every revision. auth/dpop is in neither requirement set.
    path = tmp_path / "baseline.yml"
    path.write_text("client:\n  # DPoP is not implemented.\n  - auth/dpop\n")
    both = load_baseline(path)
    doc = sample_scorecard(baselines={R1: ("baseline.yml", both), R2: ("baseline.yml", both)})
    claim = _claim(doc, tmp_path)
    assert [(i.entry, i.revisions, i.detail) for i in claim.baseline.items] == [
        ("auth/dpop", (R1, R2), "not run on the client leg")
    ]
    assert [(f.path, f.revisions, f.entries) for f in claim.baseline.files] == [
        ("baseline.yml", (R1, R2), 1)
    ]
