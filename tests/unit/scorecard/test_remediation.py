"""Remediation: one action per blocker, the most unblocking first, with what to act on."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from support.scorecards import R2, edited, implied, mixed_scorecard, skipped, tier1_scorecard
from tiercheck.model import to_json
from tiercheck.scorecard.build import implied_tier_block
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.remediation import nothing_measured, remediation
from tiercheck.scorecard.render.json_format import validate_scorecard
from tiercheck.tier import Blocker


def _with_tier(
    doc: Scorecard, tier: int, t1: Sequence[Blocker], t2: Sequence[Blocker]
) -> Scorecard:
    """`doc` with another implied tier (blockers as data) and no remediation yet."""
    block = implied_tier_block(implied(tier, t1, t2))
    return dataclasses.replace(doc, implied_tier=block, remediation=())


def actions_of(doc: Scorecard) -> list[dict[str, Any]]:
    """The remediation steps as JSON (what the scorecard writes)."""
    return [to_json(step) for step in remediation(doc)]


def test_clean_tier1_needs_nothing() -> None:
    assert remediation(tier1_scorecard()) == ()


def test_mixed_scorecard_actions_in_order() -> None:
    doc = mixed_scorecard()
    actions = actions_of(doc)
    assert [(a["blocker"].split(" (")[0], a["for_tier"], a["unblocks"]) for a in actions] == [
        # Tier 2 first (the SDK is at Tier 3); each clears its Tier 1 twin as well.
        ("client_conformance", 2, 2),
        ("p0_resolution", 2, 2),
        # Then Tier 1: measure before fixing, conformance before governance.
        ("triage", 1, 1),
        ("server_conformance", 1, 1),
        ("labels", 1, 1),
    ]
    # Every Tier 1 and Tier 2 blocker is cleared by exactly one action.
    tier = doc.implied_tier
    assert sum(a["unblocks"] for a in actions) == len(tier.tier1_blockers) + len(
        tier.tier2_blockers
    )
    validate_scorecard(to_json(doc) | {"remediation": actions})


def test_unmeasured_leg_says_fix_the_build_or_server_first_with_the_reason() -> None:
    first = actions_of(mixed_scorecard())[0]
    assert first["action"].startswith("Make the client leg measurable")
    assert first["items"][0] == (
        f"{R2}: harness exited with code 1 before writing results: Error: spawn npx ENOENT"
    )
    assert f"{R2} harness output: reports/raw/{R2}/client" in first["items"]


def test_a_leg_run_against_no_conformance_server_or_client_is_told_what_to_add() -> None:
    from support.scorecards import R1, legs_scorecard
    from tiercheck.model import from_json
    from tiercheck.scoring import unmeasured_leg

    server = dataclasses.replace(
        unmeasured_leg("server", R1, "not a conformance server: it lists none of …"),
        diagnosis="not-a-conformance-server",
    )
    client = dataclasses.replace(
        unmeasured_leg("client", R1, "not a conformance client: no check succeeded …"),
        diagnosis="not-a-conformance-client",
    )
    doc = legs_scorecard(server, client, exit_code=3)
    actions = {a["blocker"].split(" (")[0]: a for a in actions_of(doc)}
    assert actions["server_conformance"]["action"] == (
        "Point the server leg at the SDK's conformance server: add the tools, resources and "
        "prompts the harness's scenarios call, as its SDK integration guide says"
    )
    assert actions["server_conformance"]["items"] == [
        f"{R1}: not a conformance server: it lists none of …",
        f"log: reports/example-sdk/logs/server-{R1}.log",
    ]
    assert actions["client_conformance"]["action"].startswith(
        "Point the client leg at the SDK's conformance client: a client that takes the server "
        "URL as its last argument and acts on MCP_CONFORMANCE_SCENARIO"
    )
    # The diagnosis is the document's, through JSON and back, and the schema knows it.
    written = to_json(doc)
    assert written["revisions"][R1]["server"]["diagnosis"] == "not-a-conformance-server"
    assert written["revisions"][R1]["client"]["diagnosis"] == "not-a-conformance-client"
    validate_scorecard(written)
    again = from_json(Scorecard, written)
    assert again.revisions[R1].server.diagnosis == "not-a-conformance-server"
    # Without a diagnosis, an unmeasured leg is still told to fix its build or start-up.
    plain = legs_scorecard(unmeasured_leg("server", R1, "killed"), client, exit_code=3)
    assert actions_of(plain)[0]["action"].startswith("Make the server leg measurable")


def test_failing_scenarios_come_with_message_and_spec_link() -> None:
    server = next(a for a in actions_of(mixed_scorecard()) if a["blocker"] == "server_conformance")
    assert server["action"] == "Fix 1 failing required server scenario (86% passing, 100% needed)"
    assert server["items"] == [
        "2025-11-25 tools-call-image: tools-call-image-content: Expected content[0].type == "
        "'image', got 'text' | mimeType missing "
        "(https://modelcontextprotocol.io/specification/2025-11-25/server/tools#image-content)"
    ]


def test_missing_labels_are_named_and_p0s_listed() -> None:
    actions = {a["blocker"]: a for a in actions_of(mixed_scorecard())}
    assert actions["labels"]["items"] == ["needs repro", "P3"]
    p0 = actions["p0_resolution (14 days)"]
    assert p0["items"] == [
        "#812 Server | crashes on empty cursor (open 9 days)",
        "1 of 4 closed P0s took longer than 7 days (all history)",
    ]


def test_only_tier1_blocker_conformance_comes_first_among_equals() -> None:
    def change(data: dict[str, Any]) -> None:
        data["checks"]["stable_release"] |= {"version": "0.9.1", "is_stable": False}

    blockers = [
        Blocker("labels", 1),
        Blocker("stable_release", 1),
        Blocker("server_conformance", 1),
    ]
    doc = _with_tier(edited(mixed_scorecard(), change), 2, blockers, [])
    actions = actions_of(doc)
    assert [a["blocker"] for a in actions] == ["server_conformance", "labels", "stable_release"]
    assert actions[2]["items"] == ["newest release: 0.9.1"]
    assert all(a["for_tier"] == 1 for a in actions)


def test_an_action_clearing_both_tiers_outranks_one_clearing_one() -> None:
    doc = _with_tier(
        mixed_scorecard(),
        3,
        [Blocker("labels", 1), Blocker("stable_release", 1), Blocker("spec_tracking", 1)],
        [Blocker("stable_release", 2)],
    )
    actions = actions_of(doc)
    assert [(a["blocker"], a["unblocks"]) for a in actions] == [
        ("stable_release", 2),
        ("labels", 1),
        ("spec_tracking", 1),
    ]
    assert actions[2]["action"] == "Release an SDK version tracking spec release 2025-11-25"


def test_tier2_sdk_is_not_told_about_tier2_blockers() -> None:
    doc = _with_tier(mixed_scorecard(), 2, [Blocker("labels", 1)], [Blocker("stable_release", 2)])
    assert [a["blocker"] for a in actions_of(doc)] == ["labels"]


def test_skipped_leg_and_skipped_governance_ask_for_configuration() -> None:
    no_client = "no client command configured"
    doc = tier1_scorecard(
        replace_legs={
            (rev, "client"): skipped(rev, "client", no_client) for rev in ("2025-11-25", R2)
        }
    )

    def change(data: dict[str, Any]) -> None:
        data["checks"]["triage"] |= {"status": "skipped", "reason": "--skip-governance"}

    blockers = [Blocker("client_conformance", 1, "skipped"), Blocker("triage", 1, "skipped")]
    doc = _with_tier(edited(doc, change), 2, blockers, [])
    actions = actions_of(doc)
    assert actions[0]["action"] == (
        "Configure a client command in known_sdks.yaml so the client leg runs"
    )
    assert actions[0]["items"] == [
        "2025-11-25: no client command configured",
        "2026-07-28: no client command configured",
    ]
    assert actions[1]["action"] == "Run the triage check (skipped in this run: --skip-governance)"


def test_remediation_ignores_a_stale_remediation_field_and_is_deterministic() -> None:
    doc = mixed_scorecard()
    expected = remediation(doc)

    def change(data: dict[str, Any]) -> None:
        data["remediation"] = [
            {"blocker": "x", "for_tier": 1, "action": "y", "items": [], "unblocks": 1}
        ]

    stale = edited(doc, change)
    assert remediation(stale) == expected
    assert stale.remediation[0].blocker == "x"


def test_a_skipped_blocker_with_a_qualifier_is_one_action_for_both_tiers() -> None:
    def change(data: dict[str, Any]) -> None:
        data["checks"]["p0_resolution"] |= {"status": "skipped", "reason": "--skip-governance"}

    doc = _with_tier(
        edited(tier1_scorecard(), change),
        3,
        [Blocker("p0_resolution", 1, "skipped"), Blocker("labels", 1)],
        [Blocker("p0_resolution", 2, "skipped", "14 days")],
    )
    actions = actions_of(doc)
    assert [(a["blocker"], a["for_tier"], a["unblocks"]) for a in actions] == [
        ("p0_resolution (14 days) (skipped)", 2, 2),
        ("labels", 1, 1),
    ]
    assert actions[0]["action"].startswith("Run the p0_resolution check")


def _all_skipped(registered: bool | None) -> Scorecard:
    """Every leg skipped for want of a command, of an SDK in the registry or not."""
    reasons = {"server": "no server command/url configured", "client": "no client command"}
    doc = tier1_scorecard(
        replace_legs={
            (rev, leg): skipped(rev, leg, reasons[leg])
            for rev in ("2025-11-25", R2)
            for leg in ("server", "client")
        }
    )

    def change(data: dict[str, Any]) -> None:
        data["sdk"] |= {"registered": registered, "path": "/work/mysdk"}
        if registered is None:
            del data["sdk"]["registered"]

    blockers = [
        Blocker("server_conformance", 1, "skipped"),
        Blocker("client_conformance", 1, "skipped"),
    ]
    return _with_tier(edited(doc, change), 2, blockers, [])


def test_an_sdk_not_in_the_registry_is_told_which_flags_configure_it() -> None:
    actions = {a["blocker"].split(" ")[0]: a["action"] for a in actions_of(_all_skipped(False))}
    assert actions["server_conformance"] == (
        "Configure a server command and URL so the server leg runs: example-sdk is not in the "
        "registry, so pass --server-cmd and --server-url, or write its entry with "
        "`tier-check init` and pass --registry FILE"
    )
    assert actions["client_conformance"] == (
        "Configure a client command so the client leg runs: example-sdk is not in the "
        "registry, so pass --client-cmd, or write its entry with `tier-check init` and pass "
        "--registry FILE"
    )
    # A registered SDK, or a scorecard from before the field, is pointed at its entry.
    for registered in (True, None):
        (first, *_) = actions_of(_all_skipped(registered))
        assert "in known_sdks.yaml" in first["action"]


def test_nothing_measured_names_the_flags_the_registry_and_init() -> None:
    lines = nothing_measured(_all_skipped(False))
    assert (
        lines[0]
        == "nothing was measured: example-sdk is not in the registry, so no leg has a command"
    )
    text = " ".join(lines)
    for needed in (
        "--server-cmd",
        "--server-url",
        "--client-cmd",
        "--registry FILE",
        "tier-check init",
    ):
        assert needed in text
    assert "`tier-check show-config --sdk-path /work/mysdk`" in text
    registered = " ".join(nothing_measured(_all_skipped(True)))
    assert "not in the registry" not in registered
    assert "no leg of example-sdk has a command configured" in registered


def test_nothing_measured_is_silent_when_a_leg_was_measured() -> None:
    assert nothing_measured(tier1_scorecard()) == ()
    one_measured = tier1_scorecard(
        replace_legs={(rev, "client"): skipped(rev, "client", "none") for rev in ("2025-11-25", R2)}
    )
    assert nothing_measured(one_measured) == ()


def test_nothing_measured_when_every_leg_was_unmeasured_points_at_the_reasons() -> None:
    from tiercheck.scoring import unmeasured_leg

    doc = tier1_scorecard(
        replace_legs={
            (rev, leg): unmeasured_leg(leg, rev, "the build failed")
            for rev in ("2025-11-25", R2)
            for leg in ("server", "client")
        }
    )
    (line,) = nothing_measured(doc)
    assert line.startswith("nothing was measured: every leg was unmeasured or skipped")
