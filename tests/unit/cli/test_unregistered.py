"""An SDK tiercheck's registry does not know: flags alone configure it, `show-config` and
`doctor` preview it, a registry file adds to the bundled registry, `--tag-prefix` reads its
tags, and a run that measures nothing exits 3 saying what to do.

Nothing here runs an assessment's legs: a run with no command stops after the checkout
(no harness, no build), and the others only resolve the configuration.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tiercheck.cli.app import main
from tiercheck.config.registry import default_registry_path, load_registry, load_with_bundled
from tiercheck.errors import UsageError

REPO = Path(__file__).resolve().parents[3]
SNAPSHOT = REPO / "examples" / "sample-sdk" / "governance-snapshot.json"
R1, R2 = "2025-11-25", "2026-07-28"
SERVER = "./target/debug/conformance-server --transport http --port {port}"
URL = "http://127.0.0.1:{port}/mcp"
CLIENT = "./target/debug/conformance-client"
FLAGS = ["--server-cmd", SERVER, "--server-url", URL, "--client-cmd", CLIENT]


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout no registry entry is named like, with a baseline file, and a private cache."""
    sdk = tmp_path / "widget-mcp"
    sdk.mkdir()
    (sdk / "conformance-baseline.yml").write_text("server: []\n", encoding="utf-8")
    monkeypatch.setenv("TIERCHECK_CACHE", str(tmp_path / "cache"))
    for name in ("TIERCHECK_REGISTRY", "TIERCHECK_TAG_PREFIX", "TIERCHECK_SERVER_CMD"):
        monkeypatch.delenv(name, raising=False)
    return sdk


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- show-config and doctor preview it -----------------------------------------------------


def test_show_config_previews_an_unregistered_checkout_with_nothing_to_run(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["show-config", "--sdk-path", str(checkout), "--json"], capsys)
    assert code == 0
    shown = json.loads(out)
    assert (shown["sdk"], shown["repo"], shown["registered"]) == (
        "widget-mcp",
        "local/widget-mcp",
        False,
    )
    assert list(shown["would_run"]) == [R1, R2]  # every revision tiercheck knows
    assert shown["would_run"][R1] == {
        "build": "none",
        "server": "skipped: no server command/url configured",
        "client": "skipped: no client command configured",
        "expected_failures": {"server": "none", "client": "none"},
        "legs": [],
        "client_start": None,
    }
    for needed in ("--server-cmd", "--server-url", "--client-cmd", "--registry FILE", "init"):
        assert needed in shown["nothing_would_run"]


def test_show_config_previews_what_the_flags_would_run(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["show-config", "--sdk-path", str(checkout), "--revision", R2, *FLAGS]
    argv += ["--expected-failures", "conformance-baseline.yml", "--tag-prefix", "widget-mcp-v"]
    code, out, _ = _run(argv, capsys)
    assert code == 0
    assert out.splitlines()[0] == (
        "widget-mcp (local/widget-mcp): not in the registry, configured by flags and "
        "TIERCHECK_* variables alone"
    )
    assert (
        "  tag_prefix               'widget-mcp-v'\n"
        "                             from --tag-prefix" in out
    )
    assert f"    server    {SERVER}  (MCP at {URL})\n" in out
    assert f"    client    {CLIENT}\n              cold start: each scenario's client" in out
    # The baseline is read inside the checkout, and found there; one FILE serves both legs.
    for leg in ("server", "client"):
        assert f"    baseline  {leg}: {checkout / 'conformance-baseline.yml'} (found)\n" in out
    assert "nothing would run" not in out
    code, out, _ = _run([*argv, "--json"], capsys)
    assert json.loads(out)["would_run"][R2]["legs"] == ["server", "client"]
    assert json.loads(out)["would_run"][R2]["client_start"] == "cold"  # a native binary
    python_client = ["--client-cmd", ".venv/bin/python conformance/client.py"]
    code, out, _ = _run([*argv, *python_client, "--json"], capsys)
    assert json.loads(out)["would_run"][R2]["client_start"] == "warm"


def test_doctor_takes_a_checkout_and_says_what_would_run(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["doctor", "--sdk-path", str(checkout), "--output", "json"]
    code, out, _ = _run(base, capsys)
    doc = json.loads(out)
    assert code == 1  # nothing would run
    (row,) = doc["rows"]
    assert (row["sdk"], row["runnable"], row["tools"]) == ("widget-mcp", False, [])
    assert row["reason"].startswith("no leg has a command (widget-mcp is not in the registry)")
    code, out, _ = _run([*base, *FLAGS], capsys)
    doc = json.loads(out)
    assert code == 0
    assert doc["rows"][0]["runnable"] is True
    assert doc["would_run"][R1]["legs"] == ["server", "client"]
    assert doc["would_run"][R1]["server"] == f"{SERVER}  (MCP at {URL})"


# --- a registry file adds to the bundled registry -------------------------------------------


def test_a_registry_file_adds_its_entries_and_wins_by_name(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            widget-mcp:
              repo: acme/widget-mcp
              revisions: ["2025-11-25"]
              tag_prefix: widget-mcp-v
            go-sdk:
              repo: someone/go-sdk-fork
              revisions: ["2025-11-25"]
            """
        ),
        encoding="utf-8",
    )
    bundled = load_registry()
    merged = load_with_bundled(path)
    # Every bundled line is still there, in its place; the file's new line comes after them.
    assert merged.names() == [*bundled.names(), "widget-mcp"]
    assert merged.get("python-sdk") == bundled.get("python-sdk")
    # The file's entry replaces the bundled one of its name.
    assert merged.get("go-sdk").repo == "someone/go-sdk-fork"
    assert merged.get("go-sdk").source == str(path)
    assert merged.get("widget-mcp").tag_prefix == "widget-mcp-v"
    assert merged.files == (default_registry_path(), path)
    assert merged.path == path  # what a matrix row is handed, to add it again
    assert load_with_bundled(None).names() == bundled.names()
    with pytest.raises(UsageError, match=r"registry: .*known_sdks\.yaml \+ .*mine\.yaml"):
        merged.get("nothing-like-it")


def test_an_unknown_name_says_how_an_unregistered_sdk_is_assessed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = _run(["show-config", "--sdk", "tower-mcp"], capsys)
    assert code == 2
    assert "unknown SDK 'tower-mcp'" in err
    assert "--sdk-path DIR and its commands as flags" in err
    assert "`tier-check init`" in err
    assert "--registry FILE" in err


# --- --tag-prefix reaches what reads tags ----------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        ("flag", "sample-v", None),  # no tag starts with it: no stable release by SEP-1730
        ("env", "sample-v", None),
        ("flag", "v", "1.0.0"),
        (None, "", "1.0.0"),  # no prefix: the tag's trailing X.Y.Z
    ],
)
def test_the_tag_prefix_flag_and_variable_reach_the_release_reading(
    case: tuple[str | None, str, str | None],
    tmp_path: Path,
    checkout: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    how, prefix, sep_version = case
    argv = ["--sdk-path", str(checkout), "--repo", "tiercheck/sample-sdk"]
    argv += ["--governance-snapshot", str(SNAPSHOT), "--no-history", "--probes", "none"]
    argv += ["--out", str(tmp_path / "out"), "--output", "json"]
    if how == "flag":
        argv += ["--tag-prefix", prefix]
    elif how == "env":
        monkeypatch.setenv("TIERCHECK_TAG_PREFIX", prefix)
    code, out, _ = _run(argv, capsys)
    doc = json.loads(out)
    assert code == 3  # no command: nothing measured, but governance still read
    source = {"flag": "--tag-prefix", "env": "TIERCHECK_TAG_PREFIX", None: "default"}[how]
    assert doc["revisions"][R1]["config"]["tag_prefix"] == {"value": prefix, "source": source}
    assert doc["checks"]["stable_release"]["sep1730"]["version"] == sep_version
    # The official reading never changes: the first non-draft release, whatever the prefix.
    assert doc["checks"]["stable_release"]["version"] == "1.1.0-rc.1"


# --- help texts ----------------------------------------------------------------------------


def test_the_help_says_where_a_baseline_is_read_and_what_a_registry_file_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--expected-failures SPEC baseline: FILE, LEG=FILE, @REV=FILE or LEG@REV=FILE" in out
    assert "repeatable; relative to the SDK's checkout" in out
    assert "whose entries are added to the bundled registry, winning by name" in out
    assert "--tag-prefix PREFIX" in out
    assert "TIERCHECK_TAG_PREFIX" in out


# --- a run that measures nothing exits 3 ----------------------------------------------------


def test_an_unregistered_checkout_without_flags_exits_3_with_the_hint(
    tmp_path: Path, checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--sdk-path", str(checkout), "--skip-governance", "--no-history"]
    code, _, err = _run([*argv, "--out", str(tmp_path / "out")], capsys)
    assert code == 3
    assert "tier-check: nothing was measured: widget-mcp is not in the registry" in err
    assert f"`tier-check show-config --sdk-path {checkout}`" in err
    assert not (tmp_path / "cache" / "harness").exists()  # nothing provisioned to run nothing
    doc = json.loads((tmp_path / "out" / "scorecard.json").read_text("utf-8"))
    assert (doc["exit_code"], doc["sdk"]["registered"]) == (3, False)
    steps = [step["action"] for step in doc["remediation"]]
    assert any("widget-mcp is not in the registry, so pass --client-cmd" in s for s in steps)


def test_a_claim_on_a_run_that_measured_nothing_exits_3(
    tmp_path: Path, checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["claim", "--sdk-path", str(checkout), "--skip-governance", "--no-history"]
    code, out, err = _run([*argv, "--tier", "1", "--out", str(tmp_path / "claim")], capsys)
    assert code == 3  # not 1 ("blocked"): there is no measurement to block
    assert "blocked" in out
    assert "nothing was measured: widget-mcp is not in the registry" in err
    assert (tmp_path / "claim" / "claim.json").is_file()
