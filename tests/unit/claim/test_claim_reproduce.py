"""The reproduce section: tiercheck's exact command, then the official harness's per revision.

Expected commands are worked out by hand from the sample SDK's entry in
tiercheck/_data/known_sdks.yaml (its build, its server command per revision with `{port}` as
3000, its URL, its client, its baseline files, the default 30 s client timeout) and from the
official CLI's flags (`conformance server --url URL --requirements REV`, `conformance client
--command CMD --requirements REV --timeout MS`, `--expected-failures FILE`).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import yaml

from support.scorecards import sample_scorecard
from tiercheck.claim.markdown import render_assessment
from tiercheck.claim.pack import build_claim
from tiercheck.claim.reproduce import Rerun, baseline_specs, reproduce
from tiercheck.config.registry import SdkEntry, load_registry
from tiercheck.config.resolve import ConfigFlags, resolve
from tiercheck.scorecard.model import ConfigEntry, Scorecard

COMMIT = "3f9a2c41d7e0b5a8c6f1e2d3b4a59687c0d1e2f3"
REPO = Path(__file__).resolve().parents[3]
R1, R2 = "2025-11-25", "2026-07-28"
NPX = "npx @modelcontextprotocol/conformance@0.2.0-alpha.12"


def test_the_tiercheck_command_names_the_commit_revisions_and_harness() -> None:
    rep = reproduce(sample_scorecard(), tier=1)
    assert [s.command for s in rep.tiercheck] == [
        f"tier-check claim --sdk sample-sdk@{COMMIT} --tier 1 --revision 2025-11-25 "
        # No revision ran probes: the claim is made again without them.
        "--revision 2026-07-28 --harness-version 0.2.0-alpha.12 --probes none"
    ]


def test_a_value_given_by_flag_is_given_again() -> None:
    rep = reproduce(sample_scorecard(flags={"--client-cmd": "./my client"}), tier=2)
    assert rep.tiercheck[-1].command.endswith(
        "--tier 2 --revision 2025-11-25 --revision 2026-07-28 --harness-version "
        "0.2.0-alpha.12 --client-cmd './my client' --probes none"
    )


def test_a_checkout_of_your_own_is_checked_out_at_the_commit_first() -> None:
    doc = sample_scorecard()
    sdk = dataclasses.replace(doc.sdk, origin="path", path="/src/sample sdk")
    doc = dataclasses.replace(
        doc, sdk=sdk, governance=dataclasses.replace(doc.governance, source="skipped", as_of=None)
    )
    rep = reproduce(doc, tier=1)
    # The checkout the run read, so the command runs as printed on the machine that made it.
    assert [s.command for s in rep.tiercheck] == [
        f"git -C '/src/sample sdk' checkout --detach {COMMIT}",
        "tier-check claim --sdk-path '/src/sample sdk' --sdk sample-sdk --tier 1 --revision "
        "2025-11-25 --revision 2026-07-28 --harness-version 0.2.0-alpha.12 --probes none "
        "--skip-governance",
    ]
    unknown = dataclasses.replace(doc, sdk=dataclasses.replace(sdk, path=None))
    assert reproduce(unknown, tier=1).tiercheck[0].command.startswith("git -C '<checkout>' ")


def test_an_unregistered_sdk_is_named_by_its_checkout_or_repository() -> None:
    doc = sample_scorecard()
    path = dataclasses.replace(doc, sdk=dataclasses.replace(doc.sdk, origin="path", path="/s"))
    alone = Rerun(registered=False)
    # Flags alone configured it: no --sdk NAME (it would be unknown), its repository kept.
    assert (
        reproduce(path, tier=1, rerun=alone)
        .tiercheck[-1]
        .command.startswith("tier-check claim --sdk-path /s --repo tiercheck/sample-sdk --tier 1 ")
    )
    assert (
        reproduce(doc, tier=1, rerun=alone)
        .tiercheck[-1]
        .command.startswith(f"tier-check claim --sdk tiercheck/sample-sdk@{COMMIT} --tier 1 ")
    )


def test_a_registry_file_and_a_tag_prefix_are_carried() -> None:
    rerun = Rerun(registry="sdk-registry.yaml", tag_prefix="tower-mcp-v")
    rep = reproduce(sample_scorecard(), tier=1, rerun=rerun)
    command = rep.tiercheck[-1].command
    assert command.startswith(
        f"tier-check claim --registry sdk-registry.yaml --sdk sample-sdk@{COMMIT} --tier 1 "
    )
    assert command.endswith("--tag-prefix tower-mcp-v --probes none")
    assert any("run the claim command in the claim folder" in note for note in rep.notes)


S1, S2 = "--expected-failures s.yml", "--expected-failures client=c.yml"
S3, S4 = f"--expected-failures @{R2}=d.yml", f"--expected-failures client@{R2}=e.yml"
ENV = "TIERCHECK_EXPECTED_FAILURES"


@pytest.mark.parametrize(
    ("given", "specs"),
    [
        # One FILE for every leg at every revision.
        ({(R1, "server"): ("s.yml", S1), (R1, "client"): ("s.yml", S1),
          (R2, "server"): ("s.yml", S1), (R2, "client"): ("s.yml", S1)}, ["s.yml"]),
        # client=c.yml then @R2=d.yml: each SPEC that chose a file, once.
        ({(R1, "client"): ("c.yml", S2), (R2, "server"): ("d.yml", S3),
          (R2, "client"): ("d.yml", S3)}, ["client=c.yml", f"@{R2}=d.yml"]),
        # The environment's FILE first, the flag that beat it for one leg after.
        ({(R1, "server"): ("env.yml", ENV), (R1, "client"): ("env.yml", ENV),
          (R2, "server"): ("env.yml", ENV), (R2, "client"): ("e.yml", S4)},
         ["env.yml", f"client@{R2}=e.yml"]),
        # A scorecard older than SPECs: its one key for both legs, set by the flag.
        ({(R1, "both"): ("old.yml", "--expected-failures")}, ["old.yml"]),
    ],
)  # fmt: skip
def test_the_baselines_a_flag_gave_are_given_again(
    given: dict[tuple[str, str], tuple[str, str]], specs: list[str]
) -> None:
    doc = sample_scorecard()
    revisions = dict(doc.revisions)
    for revision, entry in doc.revisions.items():
        # The registry's files stay out of the command: it names them itself.
        config = dict(entry.config)
        for leg in ("server", "client", "both"):
            if (revision, leg) in given:
                file, source = given[(revision, leg)]
                key = "expected_failures" if leg == "both" else f"expected_failures.{leg}"
                config[key] = ConfigEntry(value=file, source=source)
        if (revision, "both") in given:
            config.pop("expected_failures.server")
            config.pop("expected_failures.client")
        revisions[revision] = dataclasses.replace(entry, config=config)
    doc = dataclasses.replace(doc, revisions=revisions)
    assert baseline_specs(doc) == specs
    command = reproduce(doc, tier=1).tiercheck[-1].command
    assert command.endswith(" ".join(f"--expected-failures {s}" for s in specs) + " --probes none")
    assert command.count("--expected-failures") == len(specs)


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


def test_the_printed_command_asks_for_the_configuration_the_run_had() -> None:
    import shlex

    from tiercheck.cli.claim import claim_parser
    from tiercheck.cli.common import config_flags
    from tiercheck.config.registry import load_registry
    from tiercheck.config.resolve import resolve

    argv = [
        "--sdk",
        "sample-sdk",
        "--server-cmd",
        "./serve --port {port}",
        "--client-timeout",
        "7",
        "--expected-failures",
        "server=s.yml",
        "--expected-failures",
        f"client@{R2}=c d.yml",
        "--expected-failures",
        f"@{R1}=both.yml",
    ]
    parser = claim_parser("tier-check claim")
    given = config_flags(parser.parse_args(argv))
    doc = sample_scorecard(flags=given)
    printed = shlex.split(reproduce(doc, tier=1).tiercheck[-1].command)
    assert printed[:2] == ["tier-check", "claim"]
    again = config_flags(parser.parse_args(printed[2:]))
    entry = load_registry().get("sample-sdk")
    for revision in (R1, R2):
        before = resolve(entry, revision, environ={}, flags=given).to_dict()
        assert resolve(entry, revision, environ={}, flags=again).to_dict() == before


def _entry_text(language: str) -> str:
    """The shipped sample-sdk entry, as a registry file of one's own, with a `language`."""
    text = (REPO / "known_sdks.yaml").read_text("utf-8")
    start = text.index("\nsample-sdk:\n") + 1
    end = text.index("\n\n", start)
    return text[start:end] + f"\n  language: {language}\n"


def test_a_claim_from_a_registry_file_keeps_a_copy_and_names_it(tmp_path: Path) -> None:
    from tiercheck.cli.app import main
    from tiercheck.document_files import atomic_write_text
    from tiercheck.scorecard.render.json_format import render_json

    registry = tmp_path / "elsewhere" / "mine.yaml"
    registry.parent.mkdir()
    # Another SDK's entry beside it stays out of the published copy.
    other = _entry_text("Other").replace("sample-sdk:", "other-sdk:", 1)
    registry.write_text(_entry_text("Pythonic") + "\n" + other, encoding="utf-8")
    saved = atomic_write_text(tmp_path / "scorecard.json", render_json(sample_scorecard()))
    out = tmp_path / "claim"
    code = main(["claim", "--from", str(saved), "--registry", str(registry), "--out", str(out)])
    assert code in (0, 1)
    # The copy holds the SDK's own entry, as the file has it, and nothing else of the file.
    copy = yaml.safe_load((out / "sdk-registry.yaml").read_text("utf-8"))
    assert copy == {"sample-sdk": yaml.safe_load(registry.read_text("utf-8"))["sample-sdk"]}
    claim = json.loads((out / "claim.json").read_text("utf-8"))
    # The registry's `language` names the SDK in the title.
    assert claim["header"]["title"] == "Pythonic SDK — Tier 1 Assessment"
    assert claim["reproduce"]["tiercheck"][-1]["command"].startswith(
        f"tier-check claim --registry sdk-registry.yaml --sdk sample-sdk@{COMMIT} "
    )
    # The bundled registry needs no copy and no --registry.
    again = tmp_path / "bundled"
    assert main(["claim", "--from", str(saved), "--out", str(again)]) in (0, 1)
    assert not (again / "sdk-registry.yaml").exists()
    claim = json.loads((again / "claim.json").read_text("utf-8"))
    assert "--registry" not in claim["reproduce"]["tiercheck"][-1]["command"]


def test_each_harness_leg_is_given_its_own_baseline() -> None:
    doc = sample_scorecard()
    revisions = dict(doc.revisions)
    entry = doc.revisions[R1]
    config = dict(entry.config)
    config["expected_failures.server"] = ConfigEntry(value="s.yml", source="known_sdks.yaml: x")
    config["expected_failures.client"] = ConfigEntry(value=None, source="default")
    revisions[R1] = dataclasses.replace(entry, config=config)
    doc = dataclasses.replace(doc, revisions=revisions)
    legs = {
        step.command.split(" ")[2]: step.command
        for step in reproduce(doc, tier=1).harness
        if step.revision == R1 and step.command.startswith("npx ")
    }
    assert legs["server"].endswith(f"--requirements {R1} --expected-failures s.yml")
    # The client leg has no baseline: it is not handed the server's.
    assert legs["client"].endswith(f"--requirements {R1} --timeout 30000")


def test_a_leg_the_run_skipped_is_given_no_harness_command() -> None:
    """The server URL alone (no command) runs no server leg: the run skipped it, as
    `show-config` and `doctor` say, so the claim gives no command that would reach nothing."""
    doc = sample_scorecard()
    revisions = dict(doc.revisions)
    why = {"server": "no server command/url configured", "client": "no client command configured"}
    first = revisions[R1]
    config = dict(first.config)
    config["server.command"] = ConfigEntry(value=None, source="default")
    revisions[R1] = dataclasses.replace(
        first,
        server=dataclasses.replace(first.server, state="skipped", reason=why["server"]),
        config=config,
    )
    second = revisions[R2]
    revisions[R2] = dataclasses.replace(
        second,
        server=dataclasses.replace(second.server, state="skipped", reason=why["server"]),
        client=dataclasses.replace(second.client, state="skipped", reason=why["client"]),
    )
    rep = reproduce(dataclasses.replace(doc, revisions=revisions), tier=1)
    assert [(step.revision, step.what) for step in rep.harness] == [
        (None, "build (in the checkout)"),
        (R1, "the client leg (in the checkout)"),
    ]
    assert rep.notes[:3] == (
        f"{R1}: the server leg was skipped ({why['server']}), so it has no command here.",
        f"{R2}: the server leg was skipped ({why['server']}), so it has no command here.",
        f"{R2}: the client leg was skipped ({why['client']}), so it has no command here.",
    )


def _configured_by(doc: Scorecard, entry: SdkEntry) -> Scorecard:
    """`doc` as a run configured by `entry` alone records it: each value with its source."""
    revisions = {}
    for revision, found in doc.revisions.items():
        resolved = resolve(entry, revision, environ={}, flags=ConfigFlags()).to_dict()
        config = {k: ConfigEntry(value=v["value"], source=v["source"]) for k, v in resolved.items()}
        revisions[revision] = dataclasses.replace(found, config=config)
    return dataclasses.replace(doc, revisions=revisions)


def _saved_run_of(registry: Path, tmp_path: Path) -> Path:
    """The scorecard of a run configured by `registry`'s sample-sdk entry, saved."""
    from tiercheck.document_files import atomic_write_text
    from tiercheck.scorecard.render.json_format import render_json

    doc = _configured_by(sample_scorecard(), load_registry(registry).get("sample-sdk"))
    return atomic_write_text(tmp_path / "run" / "scorecard.json", render_json(doc))


def test_a_claim_from_the_scorecard_of_a_registry_file_run_finds_its_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No --registry: the file the recorded configuration names is read again (the bundled
    sample-sdk, of the same name, is not the entry the run had)."""
    from tiercheck.cli.app import main

    registry = tmp_path / "elsewhere" / "mine.yaml"
    registry.parent.mkdir()
    text = _entry_text("Pythonic").replace("--port {port}", "--port {port} --mine", 1)
    registry.write_text(text, encoding="utf-8")
    saved = _saved_run_of(registry, tmp_path)
    out = tmp_path / "claim"
    assert main(["claim", "--from", str(saved), "--out", str(out)]) in (0, 1)
    copy = yaml.safe_load((out / "sdk-registry.yaml").read_text("utf-8"))
    assert copy == yaml.safe_load(text)
    claim = json.loads((out / "claim.json").read_text("utf-8"))
    assert claim["header"]["title"] == "Pythonic SDK — Tier 1 Assessment"
    assert claim["reproduce"]["tiercheck"][-1]["command"].startswith(
        f"tier-check claim --registry sdk-registry.yaml --sdk sample-sdk@{COMMIT} --tier 1 "
    )
    capsys.readouterr()

    # The file changed since the run: its entry would not run what the claim reports.
    registry.write_text(text.replace("--mine", "--theirs"), encoding="utf-8")
    assert main(["claim", "--from", str(saved), "--out", str(tmp_path / "changed")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "is not the one the assessment ran with (2025-11-25 server.command differs)" in err
    assert "--registry FILE" in err

    # Gone: say which file, and how to give it.
    registry.unlink()
    assert main(["claim", "--from", str(saved), "--out", str(tmp_path / "gone")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"configured by the registry file {registry}, which is not found" in err


def test_the_registry_copy_withholds_secrets(tmp_path: Path) -> None:
    from tiercheck.cli.app import main

    registry = tmp_path / "mine.yaml"
    token = "ghp_" + "a1B2" * 9
    text = _entry_text("Pythonic") + (
        "  env:\n"
        "    API_TOKEN: plain-looking\n"
        f"    UPSTREAM: https://bot:{token}@example.invalid/x\n"
        "    LOG_LEVEL: debug\n"
    )
    registry.write_text(text, encoding="utf-8")
    saved = _saved_run_of(registry, tmp_path)
    out = tmp_path / "claim"
    assert main(["claim", "--from", str(saved), "--out", str(out)]) in (0, 1)
    copied = (out / "sdk-registry.yaml").read_text("utf-8")
    assert yaml.safe_load(copied)["sample-sdk"]["env"] == {
        "API_TOKEN": "<withheld>",
        "UPSTREAM": "<withheld>",
        "LOG_LEVEL": "debug",
    }
    claim = (out / "claim.json").read_text("utf-8")
    for secret in ("plain-looking", token):
        assert secret not in copied
        assert secret not in claim  # nor in the harness commands' environment
    notes = json.loads(claim)["reproduce"]["notes"]
    assert any("withholds env.API_TOKEN, env.UPSTREAM" in note for note in notes)


def test_every_configuration_flag_the_run_had_is_given_again() -> None:
    """The flags are the cascade's own declarations: --tag-prefix and --ready-timeout too."""
    doc = sample_scorecard(flags={"--tag-prefix": "sample-v", "--ready-timeout": "45"})
    command = reproduce(doc, tier=1).tiercheck[-1].command
    assert "--tag-prefix sample-v" in command
    assert "--ready-timeout 45.0" in command
