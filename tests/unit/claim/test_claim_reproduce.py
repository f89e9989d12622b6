"""The reproduce section: tiercheck's exact command, then the official harness's per revision.

Expected commands are worked out by hand from the sample SDK's entry in
tiercheck/_data/known_sdks.yaml (its build, its server command per revision with `{port}` as
3000, its URL, its client, its baseline files, the default 30 s client timeout) and from the
official CLI's flags (`conformance server --url URL --requirements REV`, `conformance client
--command CMD --requirements REV --timeout MS`, `--expected-failures FILE`).
"""

from __future__ import annotations

import dataclasses

from support.scorecards import sample_scorecard
from tiercheck.claim.markdown import render_assessment
from tiercheck.claim.pack import build_claim
from tiercheck.claim.reproduce import reproduce

COMMIT = "3f9a2c41d7e0b5a8c6f1e2d3b4a59687c0d1e2f3"
NPX = "npx @modelcontextprotocol/conformance@0.2.0-alpha.12"


def test_the_tiercheck_command_names_the_commit_revisions_and_harness() -> None:
    rep = reproduce(sample_scorecard(), tier=1)
    assert [s.command for s in rep.tiercheck] == [
        f"tier-check claim --sdk sample-sdk@{COMMIT} --tier 1 --revision 2025-11-25 "
        "--revision 2026-07-28 --harness-version 0.2.0-alpha.12"
    ]


def test_a_value_given_by_flag_is_given_again() -> None:
    rep = reproduce(sample_scorecard(flags={"--client-cmd": "./my client"}), tier=2)
    assert rep.tiercheck[-1].command.endswith(
        "--tier 2 --revision 2025-11-25 --revision 2026-07-28 --harness-version "
        "0.2.0-alpha.12 --client-cmd './my client'"
    )


def test_a_checkout_of_your_own_is_checked_out_at_the_commit_first() -> None:
    doc = sample_scorecard()
    doc = dataclasses.replace(doc, sdk=dataclasses.replace(doc.sdk, origin="path"))
    doc = dataclasses.replace(
        doc, governance=dataclasses.replace(doc.governance, source="skipped", as_of=None)
    )
    rep = reproduce(doc, tier=1)
    assert [s.command for s in rep.tiercheck] == [
        f"git -C '<checkout>' checkout --detach {COMMIT}",
        "tier-check claim --sdk-path '<checkout>' --sdk sample-sdk --tier 1 --revision "
        "2025-11-25 --revision 2026-07-28 --harness-version 0.2.0-alpha.12 --skip-governance",
    ]


def test_the_official_harness_commands_per_revision() -> None:
    rep = reproduce(sample_scorecard(), tier=1)
    got = [(s.revision, s.command) for s in rep.harness]
    build = (
        "python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt && "
        ".venv/bin/python -m compileall -q server.py client.py"
    )
    assert got == [
        (None, build),
        ("2025-11-25", "PORT=3000 .venv/bin/python server.py --port 3000"),
        (
            "2025-11-25",
            f"{NPX} server --url http://127.0.0.1:3000/mcp --requirements 2025-11-25 "
            "--expected-failures expected-failures.2025-11-25.yml",
        ),
        (
            "2025-11-25",
            f"{NPX} client --command '.venv/bin/python client.py' --requirements "
            "2025-11-25 --timeout 30000 --expected-failures expected-failures.2025-11-25.yml",
        ),
        ("2026-07-28", "PORT=3000 .venv/bin/python server.py --port 3000 --revision 2026-07-28"),
        (
            "2026-07-28",
            f"{NPX} server --url http://127.0.0.1:3000/mcp --requirements 2026-07-28 "
            "--expected-failures expected-failures.2026-07-28.yml",
        ),
        (
            "2026-07-28",
            f"{NPX} client --command '.venv/bin/python client.py' --requirements 2026-07-28 "
            "--timeout 30000 --expected-failures expected-failures.2026-07-28.yml",
        ),
    ]


def test_the_section_in_the_assessment() -> None:
    text = render_assessment(
        build_claim(sample_scorecard(), target_tier=1, snapshot=None, tree=None)
    )
    section = text[text.index("## Reproduce") :]
    assert "```sh\n# the whole claim, as it was made\ntier-check claim --sdk sample-sdk@" in section
    assert "# 2026-07-28: the server leg\n" + NPX in section
