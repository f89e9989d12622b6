"""The claim pack's rules: feature spotting, documentation coverage, policies, the table.

Expected values are worked out by hand: line numbers by reading the sample SDK's README (and
`grep -n`), verdicts from the blockers `tests/support/scorecards.py` states by hand, policy verdicts
from the official rules (a configured Dependabot counts; a placeholder does not).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from support.scorecards import edited, mixed_scorecard, tier1_scorecard
from tiercheck.claim.docs import docs_coverage
from tiercheck.claim.features import FEATURES, scored_features
from tiercheck.claim.pack import build_claim, claim_to_dict
from tiercheck.claim.policies import POLICY_PATHS, find_policies, prose_units
from tiercheck.claim.sources import SourceTree, classify, read_tree
from tiercheck.claim.table import ROW_IDS, build_rows, claim_status

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "examples" / "sample-sdk"


def _feature(number: int):
    return next(f for f in FEATURES if f.number == number)


def test_the_official_list_has_48_scored_features_in_its_groups() -> None:
    scored = scored_features()
    assert [f.number for f in scored] == list(range(1, 49))
    groups = [f.group for f in scored]
    assert (groups.count("core"), groups.count("transport"), groups.count("protocol")) == (36, 6, 6)
    assert sum(1 for f in FEATURES if f.group == "experimental") == 5


@pytest.mark.parametrize(
    ("number", "line", "seen"),
    [
        (1, "result = await session.list_tools()", True),
        (1, "tools, err := cs.ListTools(ctx, nil)", True),
        (1, "const { tools } = await client.listTools();", True),
        (1, "send a `tools/list` request", True),
        (1, "the blacklist tools option", False),  # "list" inside another word
        (1, "`tools/list_changed` fires when…", False),  # another method
        (36, "Send a ping to check the connection", True),
        (36, "err := session.Ping(ctx)", True),
        (36, "the mapping of shipping zones", False),
        (33, "session.set_logging_level('info')", True),
        (33, "server.setLevel(level)", True),
        (33, "the offset level", False),
        (39, "Use the SSE client for legacy servers", True),
        (48, "schemas use JSON Schema draft 2020-12", True),
    ],
)
def test_features_are_spotted_by_method_and_terms(number: int, line: str, seen: bool) -> None:
    assert _feature(number).seen_in(line) is seen


def test_paths_are_read_as_docs_examples_or_not_at_all() -> None:
    assert classify("README.md") == "docs"
    assert classify("docs/guide/tools.mdx") == "docs"
    assert classify("examples/server/main.go") == "example"
    assert classify("mcp/example_test.go") == "example"
    assert classify("mcp/server_example_test.go") == "example"  # go-sdk's Example functions
    assert classify("mcp/server_test.go") is None
    assert classify("docs_src/tools/tutorial001.py") == "example"  # code the docs include
    assert classify("CHANGELOG.md") is None  # history, not documentation
    assert classify("src/server.py") is None  # source is not documentation


def test_sample_documentation_coverage_matches_the_readme_by_hand() -> None:
    tree = read_tree(SAMPLE, POLICY_PATHS)
    coverage = docs_coverage(tree)
    assert coverage.doc_files == ("CONTRIBUTING.md", "README.md", "VERSIONING.md")
    assert coverage.example_files == ()
    by_number = {f.feature.number: f for f in coverage.features}
    # grep -n 'sampling/createMessage' README.md → 45 only.
    sampling = by_number[23]
    assert (sampling.doc_count, [(h.path, h.line) for h in sampling.doc_hits]) == (
        1,
        [("README.md", 45)],
    )
    # grep -n 'logging/setLevel' README.md → 48, 51, 116.
    assert [(h.path, h.line) for h in by_number[33].doc_hits] == [
        ("README.md", 48),
        ("README.md", 51),
        ("README.md", 116),
    ]
    # 'resources/unsubscribe' → 49; no line says ping, tools/list or "list tools".
    assert [h.line for h in by_number[15].doc_hits] == [49]
    assert not by_number[36].covered
    assert not by_number[1].covered
    assert by_number[36] in coverage.missing
    assert by_number[23].finding == "docs only"


def test_prose_units_count_sentences_and_items_not_headings_or_code() -> None:
    text = "# Roadmap\n\nTBD.\n\n```\nthis is code and not prose at all\n```\n"
    assert prose_units(text) == 0
    text = (
        "# Plan\n\nWe track the spec. Each release says what it adds.\n\n"
        "- Tasks support in 2.0\n- x\n"
    )
    assert prose_units(text) == 3


def _tree(files: dict[str, str]) -> SourceTree:
    return SourceTree(None, dict.fromkeys(files, "policy"), files)


def test_policies_decide_what_a_rule_can_and_leave_the_rest_to_review() -> None:
    dependency, roadmap, versioning = find_policies(
        _tree(
            {
                ".github/dependabot.yml": "version: 2\nupdates:\n  - package-ecosystem: pip\n",
                "ROADMAP.md": "# Roadmap\n\nComing soon.\n",
                "VERSIONING.md": "# Versioning\n\nWe follow semver. Breaking changes bump the "
                "major version. Each one is listed in the changelog.\n",
            }
        )
    )
    assert (dependency.tier1, dependency.tier2) == ("pass", "pass")
    assert roadmap.files[0].placeholder
    assert (roadmap.tier1, roadmap.tier2) == ("fail", "fail")
    assert (versioning.tier1, versioning.tier2) == ("needs review", "n/a")


def test_an_empty_dependabot_file_and_a_placeholder_policy_fail() -> None:
    dependency, roadmap, versioning = find_policies(
        _tree({".github/dependabot.yml": "version: 2\n", "DEPENDENCY_POLICY.md": "# Deps\n"})
    )
    assert dependency.tier1 == "fail"
    assert roadmap.tier1 == "fail"
    assert roadmap.summary == "not found"
    assert versioning.tier1 == "fail"


def test_a_versioning_section_of_contributing_counts_for_review() -> None:
    contributing = (
        "# Contributing\n\n## Versioning and breaking changes\n\nReleases follow semver. "
        "A removed public function is a breaking change. We announce them in the changelog.\n"
        "\n## Style\n\nRun the linter.\n"
    )
    _, _, versioning = find_policies(_tree({"CONTRIBUTING.md": contributing}))
    assert versioning.tier1 == "needs review"
    assert versioning.files[0].path == "CONTRIBUTING.md#L3"


def _verdicts(rows):
    return {row.id: (row.verdicts, row.sep1730) for row in rows}


def test_mixed_scorecard_rows_read_the_hand_worked_blockers() -> None:
    rows = build_rows(mixed_scorecard(), tiers=(1, 2), evidence=None, coverage=None, policies=None)
    assert tuple(r.id for r in rows) == ROW_IDS
    got = _verdicts(rows)
    # tests/support/scorecards.py: Tier 1 blockers server_conformance, client_conformance
    # (unmeasured),
    # triage (inconclusive), p0_resolution, labels; Tier 2 client (unmeasured), p0 (14 days);
    # SEP-1730 sees the same Tier 1 blockers and no Tier 2 blocker.
    assert got["1a"] == (("fail", "pass"), ("fail", "pass"))
    assert got["1b"] == (("unmeasured", "unmeasured"), ("unmeasured", "pass"))
    # The hand-made SEP-1730 reading lists no Tier 2 blocker, but an inconclusive triage signal
    # cannot pass any tier: the table says so.
    assert got["2"] == (("inconclusive", "n/a"), ("inconclusive", "inconclusive"))
    assert got["2b"] == (("fail", "n/a"), ("fail", "n/a"))
    assert got["3"] == (("fail", "fail"), ("fail", "pass"))
    assert got["4"] == (("pass", "pass"), ("pass", "pass"))
    assert got["4b"] == (("pass", "n/a"), ("pass", "pass"))
    for judged in ("5", "6", "7", "8"):
        assert got[judged][0][0] == "needs review"  # the checkout was not read: never a pass
        assert got[judged][1] is None
    assert claim_status(rows) == "blocked"


def test_a_tier1_scorecard_with_the_sample_files_needs_review_not_a_pass() -> None:
    doc = tier1_scorecard()
    tree = read_tree(SAMPLE, POLICY_PATHS)
    claim = build_claim(doc, target_tier=1, snapshot=None, tree=tree)
    got = _verdicts(claim.rows)
    assert all(got[r][0] == ("pass", "pass") for r in ("1a", "1b", "3", "4"))
    assert got["5"][0] == ("needs review", "needs review")
    assert got["6"][0] == ("pass", "pass")  # .github/dependabot.yml has an update entry
    assert got["7"][0] == ("fail", "fail")  # no ROADMAP.md
    assert got["8"][0] == ("needs review", "n/a")  # VERSIONING.md, 12 sentences
    assert claim.status == "blocked"
    data = claim_to_dict(claim)
    assert [r["id"] for r in data["rows"]] == list(ROW_IDS)
    assert data["documentation"]["total"] == 48
    # Links point at the assessed commit, never a branch.
    urls = [w["url"] for f in data["documentation"]["features"] for w in f["where"]]
    assert urls
    assert all(f"/blob/{doc.sdk.commit}/" in u for u in urls)


def test_a_governance_signal_that_was_not_measured_never_passes() -> None:
    # Officially "labels" is met when nothing is missing, which an unread label list also says.
    def skip(data: dict[str, Any]) -> None:
        for key in ("labels", "spec_tracking"):
            data["checks"][key]["status"] = "skipped"
            data["checks"][key]["reason"] = "skipped (--skip-governance)"

    rows = build_rows(
        edited(tier1_scorecard(), skip), tiers=(1, 2), evidence=None, coverage=None, policies=None
    )
    got = _verdicts(rows)
    assert got["2b"] == (("skipped", "n/a"), ("skipped", "n/a"))
    assert got["4b"] == (("skipped", "n/a"), ("skipped", "skipped"))
    assert rows[ROW_IDS.index("2b")].current == "skipped (--skip-governance)"


def test_some_terms_count_only_on_a_page_about_the_feature() -> None:
    feature = _feature(20)
    line = "* Wrap an `EmbeddedResource` in a `UserMessage` to attach a document."
    assert not feature.seen_in(line)
    assert feature.applies_in("docs/servers/prompts.md")
    assert feature.seen_in(line, in_context=True)
    assert not feature.applies_in("docs/servers/tools.md")


def test_claim_from_a_saved_scorecard_writes_the_folder(tmp_path: Path, capsys) -> None:
    from tiercheck.cli.app import main
    from tiercheck.document_files import atomic_write_text
    from tiercheck.scorecard.render.json_format import render_json

    saved = atomic_write_text(tmp_path / "scorecard.json", render_json(tier1_scorecard()))
    out = tmp_path / "claim"
    code = main(["claim", "--from", str(saved), "--sdk-path", str(SAMPLE), "--out", str(out)])
    assert code == 1  # no ROADMAP.md in the sample: row 7 blocks the claim
    names = {p.name for p in out.iterdir()}
    assert names == {
        "assessment.md",
        "remediation.md",
        "claim.html",
        "claim.json",
        "badge.svg",
        "badge.json",
    }
    assert "blocked by 7" in capsys.readouterr().out
    data = json.loads((out / "claim.json").read_text("utf-8"))
    assert data["scorecard"] == str(saved)
    assert data["tiers"] == [1, 2]


def test_claim_for_tier_2_judges_tier_2_and_3(tmp_path: Path) -> None:
    from tiercheck.cli.app import main
    from tiercheck.document_files import atomic_write_text
    from tiercheck.scorecard.render.json_format import render_json

    saved = atomic_write_text(tmp_path / "scorecard.json", render_json(tier1_scorecard()))
    out = tmp_path / "claim"
    main(
        ["claim", "--from", str(saved), "--sdk-path", str(SAMPLE), "--tier", "2", "--out", str(out)]
    )
    data = json.loads((out / "claim.json").read_text("utf-8"))
    assert data["tiers"] == [2, 3]
    assert all(r["verdicts"]["tier3"] == "n/a" for r in data["rows"])
    assert "## Path to Tier 2" in (out / "remediation.md").read_text("utf-8")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["claim"], "claim needs --sdk NAME, --sdk-path DIR or --from SCORECARD"),
        (["claim", "--from", "/nonexistent.json"], "cannot read the scorecard"),
        (["claim", "--from", "x.json", "--sdk", "go-sdk"], "--from reuses a finished assessment"),
    ],
)
def test_claim_bad_input_is_one_line_and_exit_2(argv: list[str], message: str, capsys) -> None:
    from tiercheck.cli.app import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
