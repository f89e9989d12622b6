"""Release day rehearsed on recorded releases: a tree pinned to 0.2.0-alpha.11 moved to
0.2.0-alpha.12 becomes today's tree, byte for byte, and the report names what alpha.12 changed.

The releases are the recorded answers of the real packages (`tests/support/referee/`, see
`support.referee_releases`); npm is not run (the lock it writes is the tree's with the harness's
entry replaced, as npm itself does it: `test_referee_rehearsal.py` runs the real one). What
alpha.12 changed is taken from its release notes (PR #503: the skills scenarios, RFC 8707
`resource` checks, the `tools/list` ordering check, per-scenario timeouts) and from the two
releases' own `list` and `--help` output, written out here by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.referee_releases import (
    RELEASES,
    RESOURCE_CHECKS,
    SKILLS_CLIENT,
    SKILLS_SERVER,
    TODAY,
    answers,
    fake_fetch,
    tree_pinned_to,
)
from tiercheck.pipeline.referee import RefereeUpdateOutcome, RefereeUpdateRequest, referee_update
from tiercheck.referee.bundle import read_bundle
from tiercheck.referee.report import render_report

REPO = Path(__file__).resolve().parents[3]
ALPHA_11 = "0.2.0-alpha.11"
FILES = (
    "runners/package.json",
    "runners/package-lock.json",
    "requirements/revisions.yaml",
    "requirements/2025-11-25.yaml",
    "requirements/2026-07-28.yaml",
)


def _update(root: Path, tmp_path: Path, *, dry_run: bool = False) -> RefereeUpdateOutcome:
    request = RefereeUpdateRequest(
        harness=TODAY, root=root, cache_dir=tmp_path / "cache", dry_run=dry_run
    )
    return referee_update(request, fetch=fake_fetch)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return tree_pinned_to(tmp_path / "tree", ALPHA_11)


def test_the_recorded_releases_are_the_two_in_question() -> None:
    assert RELEASES == (ALPHA_11, TODAY)
    assert [answers(v).version for v in RELEASES] == [ALPHA_11, TODAY]


def test_the_alpha_11_tree_differs_from_today_only_in_its_pin(tree: Path) -> None:
    for rel in FILES:
        ours, today = (tree / rel).read_text(), (REPO / rel).read_text()
        assert ours != today, rel
        assert ours.replace(ALPHA_11, TODAY) == today or rel.endswith("lock.json"), rel
    assert (
        '"@modelcontextprotocol/conformance": "0.2.0-alpha.11"'
        in (tree / "runners/package.json").read_text()
    )


def test_moving_to_alpha_12_writes_todays_tree_byte_for_byte(tree: Path, tmp_path: Path) -> None:
    outcome = _update(tree, tmp_path)
    assert outcome.written
    assert not outcome.changes.blockers
    assert set(outcome.changed) == set(FILES)
    for rel in FILES:
        assert (tree / rel).read_bytes() == (REPO / rel).read_bytes(), rel
    # The rest of requirements/ is not the change's to touch.
    assert (tree / "requirements/disputes.yaml").read_bytes() == (
        REPO / "requirements/disputes.yaml"
    ).read_bytes()
    # And once there, the same change has nothing left to do.
    again = _update(tree, tmp_path)
    assert again.changed == ()


def test_a_dry_run_writes_nothing(tree: Path, tmp_path: Path) -> None:
    before = {rel: (tree / rel).read_bytes() for rel in FILES}
    outcome = _update(tree, tmp_path, dry_run=True)
    assert not outcome.written
    assert set(outcome.changed) == set(FILES)
    assert {rel: (tree / rel).read_bytes() for rel in FILES} == before


def test_the_report_names_what_alpha_12_changed(tree: Path, tmp_path: Path) -> None:
    changes = _update(tree, tmp_path, dry_run=True).changes
    assert (changes.before, changes.after) == (ALPHA_11, TODAY)
    added = {(s.leg, s.name, s.applies) for s in changes.added}
    assert added == {
        *(("server", n, ("extension",)) for n in SKILLS_SERVER),
        *(("client", n, ("extension",)) for n in SKILLS_CLIENT),
    }
    assert changes.removed == ()
    assert changes.renamed == ()
    checks = {(c.leg, c.scenario): (c.added, c.removed) for c in changes.checks}
    # the tools/list ordering check
    assert checks[("server", "tools-list")] == (("tools-list-deterministic-order",), ())
    # RFC 8707 resource checks in the metadata discovery scenarios
    for scenario in ("metadata-default", "metadata-var1", "metadata-var2", "metadata-var3"):
        assert checks[("client", f"auth/{scenario}")] == (RESOURCE_CHECKS, ())
    for method in ("basic", "post", "none"):
        key = ("client", f"auth/token-endpoint-auth-{method}")
        assert checks[key] == (("resource-parameter-matches-prm",), ())
    assert len(checks) == 8
    # per-scenario timeouts: the server command takes --timeout; no flag is gone
    assert [(f.command, f.added, f.removed) for f in changes.flags] == [
        ("server", ("--timeout",), ())
    ]
    # the sets are the same in both releases: nothing moves, every revision adopts its own
    assert changes.moves == ()
    for revision in changes.revisions:
        assert revision.adopted
        assert (revision.harness_before, revision.harness_after) == (ALPHA_11, TODAY)
        assert revision.wire_before == revision.wire_after
    assert [(p.package, p.before, p.after) for p in changes.packages] == [
        ("@modelcontextprotocol/conformance", ALPHA_11, TODAY)
    ]


def test_the_recorded_wires_are_the_revisions_own(tree: Path) -> None:
    # The first request alpha.12 sends at each set: the handshake, or a stateless discover.
    wires = read_bundle(answers(TODAY)).wires
    assert wires["2025-11-25"].kind == "stateful"
    assert wires["2025-11-25"].protocol_version == "2025-11-25"
    assert wires["2026-07-28"].kind == "stateless"
    assert wires["2026-07-28"].protocol_version == "2026-07-28"


def test_the_report_text_says_so(tree: Path, tmp_path: Path) -> None:
    outcome = _update(tree, tmp_path, dry_run=True)
    text = render_report(outcome.changes, changed=outcome.changed, written=False, dry_run=True)
    assert text.startswith(
        "referee: @modelcontextprotocol/conformance 0.2.0-alpha.11 → 0.2.0-alpha.12\n"
    )
    assert "  server: added sep-2640-skills-directory [extension]\n" in text
    assert "  server tools-list: + tools-list-deterministic-order\n" in text
    assert "  `server`: new --timeout\n" in text
    assert "files that would change (nothing written):\n  runners/package.json\n" in text
    assert "BLOCKED" not in text
