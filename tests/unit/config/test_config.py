"""known_sdks.yaml, requirement sets and the configuration cascade."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tiercheck.cli import main
from tiercheck.config.registry import load_registry
from tiercheck.config.requirements import load_requirement_set
from tiercheck.config.resolve import ConfigFlags, Layer, resolve
from tiercheck.config.yamlio import loads_yaml
from tiercheck.errors import ConfigError, UsageError

GOOD_ENTRY = """\
go-sdk:
  repo: modelcontextprotocol/go-sdk
  revisions: ["2025-11-25", "2026-07-28"]
  build: go build ./...
  server:
    command: ./server -http=127.0.0.1:{port} -stateless=false
    url: http://127.0.0.1:{port}
  client:
    command: ./client
  spec_overrides:
    "2026-07-28":
      server:
        command: ./server -http=127.0.0.1:{port}
"""


def write_registry(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "known_sdks.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def config_error(tmp_path: Path, text: str) -> str:
    path = write_registry(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_registry(path)
    message = info.value.message
    assert "\n" not in message, "errors are one line"
    assert str(path) in message, "errors name the file"
    return message


# --- YAML loading ---------------------------------------------------------------------------


def test_yaml_keeps_dates_and_on_as_strings() -> None:
    data = loads_yaml("2025-11-25: on\nrevisions: [2026-07-28]\nflag: yes\nreal: true\n", "t")
    assert data == {"2025-11-25": "on", "revisions": ["2026-07-28"], "flag": "yes", "real": True}


def test_yaml_syntax_error_names_file_and_line() -> None:
    with pytest.raises(ConfigError, match=r"^x\.yaml:\d+: "):
        loads_yaml("a: 1\nb: [unclosed\n", "x.yaml")


def test_yaml_duplicate_key_rejected() -> None:
    with pytest.raises(ConfigError, match="duplicate key 'repo'"):
        loads_yaml("repo: a\nrepo: b\n", "x.yaml")


# --- known_sdks.yaml validation ---------------------------------------------------------------


def test_shipped_registry_has_the_eight_official_lines() -> None:
    registry = load_registry()
    official = {
        "typescript-sdk",
        "typescript-sdk-v1",
        "go-sdk",
        "python-sdk",
        "python-sdk-v1",
        "rust-sdk",
        "csharp-sdk",
        "ruby-sdk",
    }
    assert official <= set(registry.names())
    # The v1 lines claim only the stateful revision: never scored at 2026-07-28.
    assert registry.get("python-sdk-v1").revisions == ("2025-11-25",)
    assert registry.get("typescript-sdk-v1").revisions == ("2025-11-25",)
    for entry in registry.entries.values():
        for revision in entry.revisions:
            config = resolve(entry, revision, environ={}, flags=ConfigFlags())
            for text in (config.server_command or "", config.server_url or ""):
                assert "3000" not in text, f"{entry.name}: ports are allocated, never fixed"
            if entry.name == "java-sdk":
                # Its servlet hard-codes 8080 and accepts only a `localhost` Host header.
                assert config.server_url == "http://localhost:8080/mcp"
                continue
            assert config.server_url is None or "{port}" in config.server_url


def test_unknown_key_gets_did_you_mean(tmp_path: Path) -> None:
    message = config_error(
        tmp_path,
        """\
        go-sdk:
          repo: a/b
          revisions: ["2025-11-25"]
          sever:
            command: x
        """,
    )
    assert "go-sdk.sever" in message
    assert "did you mean 'server'?" in message


def test_nested_unknown_key_reported_at_its_path(tmp_path: Path) -> None:
    message = config_error(
        tmp_path,
        GOOD_ENTRY.replace(
            "        command: ./server -http=127.0.0.1:{port}\n", "        urll: x\n"
        ),
    )
    assert "go-sdk.spec_overrides.2026-07-28.server.urll" in message
    assert "did you mean 'url'?" in message


def test_wrong_type_names_path_and_types(tmp_path: Path) -> None:
    message = config_error(
        tmp_path,
        GOOD_ENTRY.replace("    url: http://127.0.0.1:{port}\n", "    url: 42\n"),
    )
    assert "go-sdk.server.url" in message
    assert "expected a string, got an integer (42)" in message


def test_unquoted_date_where_a_number_belongs(tmp_path: Path) -> None:
    message = config_error(
        tmp_path,
        GOOD_ENTRY.replace("    url: http://127.0.0.1:{port}\n", "    ready_timeout: 2025-11-25\n"),
    )
    assert "go-sdk.server.ready_timeout" in message
    assert "expected a number" in message
    assert "'2025-11-25'" in message or '"2025-11-25"' in message


def test_unquoted_dates_stay_revisions(tmp_path: Path) -> None:
    path = write_registry(
        tmp_path,
        GOOD_ENTRY.replace('["2025-11-25", "2026-07-28"]', "[2025-11-25, 2026-07-28]").replace(
            '"2026-07-28":', "2026-07-28:"
        ),
    )
    entry = load_registry(path).get("go-sdk")
    assert entry.revisions == ("2025-11-25", "2026-07-28")
    config = resolve(entry, "2026-07-28", environ={}, flags=ConfigFlags())
    assert config.server_command == "./server -http=127.0.0.1:{port}"


def test_unknown_revision_in_revisions(tmp_path: Path) -> None:
    message = config_error(
        tmp_path, GOOD_ENTRY.replace('["2025-11-25", "2026-07-28"]', '["2025-11-25", "2025-11-26"]')
    )
    assert "go-sdk.revisions[1]" in message
    assert "'2025-11-26' is not a known spec revision" in message


def test_unknown_revision_as_override_key(tmp_path: Path) -> None:
    message = config_error(tmp_path, GOOD_ENTRY.replace('"2026-07-28":', '"2026-07-29":'))
    assert "go-sdk.spec_overrides.2026-07-29" in message
    assert "not a known spec revision" in message


def test_override_for_unclaimed_revision(tmp_path: Path) -> None:
    message = config_error(
        tmp_path, GOOD_ENTRY.replace('["2025-11-25", "2026-07-28"]', '["2025-11-25"]')
    )
    assert "go-sdk.spec_overrides.2026-07-28" in message
    assert "does not claim" in message


def test_cli_reports_bad_registry_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_registry(
        tmp_path, "go-sdk:\n  repo: a/b\n  revisions: ['2025-11-25']\n  sever: {}\n"
    )
    code = main(["list", "--registry", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert f"{path}: go-sdk.sever: unknown key (did you mean 'server'?)" in err


# --- requirement sets -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("revision", "server", "client", "ns_server", "ns_client"),
    [("2025-11-25", 30, 18, 3, 7), ("2026-07-28", 37, 32, 13, 7)],
)
def test_frozen_requirement_counts(
    revision: str, server: int, client: int, ns_server: int, ns_client: int
) -> None:
    rset = load_requirement_set(revision)
    assert (len(rset.server), len(rset.client)) == (server, client)
    assert len(rset.not_scored_on("server")) == ns_server
    assert len(rset.not_scored_on("client")) == ns_client


def write_set(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "2025-11-25.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_requirement_set_rejects_scored_and_not_scored(tmp_path: Path) -> None:
    path = write_set(
        tmp_path,
        """\
        server: [ping]
        client: [initialize]
        not_scored:
          - {scenario: ping, leg: server, reason: pending}
        """,
    )
    with pytest.raises(ConfigError, match=r"not_scored\[0\]: 'ping' is also scored under server"):
        load_requirement_set("2025-11-25", path)


def test_requirement_set_rejects_duplicates(tmp_path: Path) -> None:
    path = write_set(tmp_path, "server: [ping, ping]\nclient: []\n")
    with pytest.raises(ConfigError, match=r"server: 'ping' is listed twice"):
        load_requirement_set("2025-11-25", path)
    path = write_set(
        tmp_path,
        """\
        server: [ping]
        client: []
        not_scored:
          - {scenario: x, leg: client, reason: extension}
          - {scenario: x, leg: client, reason: pending}
        """,
    )
    with pytest.raises(ConfigError, match=r"not_scored\[1\]: 'x' \(client\) is listed twice"):
        load_requirement_set("2025-11-25", path)


def test_requirement_set_rejects_empty_and_unknown(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="empty"):
        load_requirement_set("2025-11-25", write_set(tmp_path, "server: []\nclient: []\n"))
    with pytest.raises(ConfigError, match=r"servr: unknown key \(did you mean 'server'\?\)"):
        load_requirement_set("2025-11-25", write_set(tmp_path, "servr: [a]\nclient: [b]\n"))
    with pytest.raises(ConfigError, match="not a known spec revision"):
        load_requirement_set("2024-01-01")
    bad_reason = "server: [a]\nclient: []\nnot_scored:\n  - {scenario: b, leg: server, reason: x}\n"
    with pytest.raises(ConfigError, match=r"not_scored\[0\]\.reason: 'x' is not one of"):
        load_requirement_set("2025-11-25", write_set(tmp_path, bad_reason))


# --- the cascade ------------------------------------------------------------------------------


def test_cascade_layers_and_sources(tmp_path: Path) -> None:
    entry = load_registry(write_registry(tmp_path, GOOD_ENTRY)).get("go-sdk")
    stateful = resolve(entry, "2025-11-25", environ={}, flags=ConfigFlags())
    stateless = resolve(entry, "2026-07-28", environ={}, flags=ConfigFlags())
    assert stateful.server_command == "./server -http=127.0.0.1:{port} -stateless=false"
    assert stateless.server_command == "./server -http=127.0.0.1:{port}"
    assert stateless.values["server.command"].layer is Layer.SPEC_OVERRIDE
    # server merges field by field: the override did not touch the URL
    assert stateless.server_url == "http://127.0.0.1:{port}"
    assert stateless.values["server.url"].layer is Layer.REGISTRY
    assert stateless.values["server.ready_timeout"].layer is Layer.DEFAULT

    env_wins = resolve(
        entry, "2026-07-28", environ={"TIERCHECK_SERVER_CMD": "from-env"}, flags=ConfigFlags()
    )
    assert env_wins.server_command == "from-env"
    assert env_wins.values["server.command"].source == "TIERCHECK_SERVER_CMD"

    flag_wins = resolve(
        entry,
        "2026-07-28",
        environ={"TIERCHECK_SERVER_CMD": "from-env"},
        flags=ConfigFlags({"--server-cmd": "from-flag"}),
    )
    assert flag_wins.server_command == "from-flag"
    assert flag_wins.values["server.command"].layer is Layer.COMMAND_LINE


def test_client_block_replaces_wholesale(tmp_path: Path) -> None:
    text = (
        GOOD_ENTRY.replace(
            "  client:\n    command: ./client\n",
            "  client:\n    command: ./client\n    timeout: 9\n",
        )
        + '    "2025-11-25":\n      client:\n        command: ./other\n'
    )
    text = text.replace('["2025-11-25", "2026-07-28"]', '["2025-11-25", "2026-07-28"]')
    entry = load_registry(write_registry(tmp_path, text)).get("go-sdk")
    base = resolve(entry, "2026-07-28", environ={}, flags=ConfigFlags())
    replaced = resolve(entry, "2025-11-25", environ={}, flags=ConfigFlags())
    assert (base.client_command, base.client_timeout) == ("./client", 9)
    assert replaced.client_command == "./other"
    assert replaced.client_timeout == 30.0  # the replacing block has no timeout: default again
    # …and the source says what replaced the registry's 9 s.
    where = f"{tmp_path / 'known_sdks.yaml'}: go-sdk.spec_overrides.2025-11-25"
    assert replaced.values["client.timeout"].source == f"default (replaced by {where})"


def test_bad_number_from_environment() -> None:
    entry = load_registry().get("go-sdk")
    with pytest.raises(ConfigError, match="TIERCHECK_READY_TIMEOUT: expected a positive number"):
        resolve(
            entry, "2025-11-25", environ={"TIERCHECK_READY_TIMEOUT": "soon"}, flags=ConfigFlags()
        )


# --- the CLI verbs ----------------------------------------------------------------------------


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["list", "--json"], capsys)
    assert code == 0
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["go-sdk"]["repo"] == "modelcontextprotocol/go-sdk"
    assert rows["python-sdk-v1"]["default_ref"] == "v1.x"
    assert rows["python-sdk-v1"]["revisions"] == ["2025-11-25"]


def test_requirements_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["requirements", "2026-07-28", "--json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert (data["server"]["scored_count"], data["client"]["scored_count"]) == (37, 32)
    assert (data["server"]["not_scored_count"], data["client"]["not_scored_count"]) == (13, 7)
    reasons = {e["scenario"]: e["reason"] for e in data["server"]["not_scored"]}
    assert reasons["tasks-lifecycle"] == "extension"
    assert reasons["http-header-validation"] == "pending"


def test_show_config_go_sdk_differs_per_revision(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TIERCHECK_SERVER_CMD", raising=False)
    _, out_a, _ = run_cli(
        ["show-config", "--sdk", "go-sdk", "--revision", "2025-11-25", "--json"], capsys
    )
    _, out_b, _ = run_cli(
        ["show-config", "--sdk", "go-sdk", "--revision", "2026-07-28", "--json"], capsys
    )
    a = json.loads(out_a)["revisions"]["2025-11-25"]
    b = json.loads(out_b)["revisions"]["2026-07-28"]
    differing = sorted(key for key in a if a[key] != b[key])
    assert differing == ["server.command"]
    assert a["server.command"]["value"].endswith("-stateless=false")
    assert b["server.command"]["value"] == "./.conformance-server -http=127.0.0.1:{port}"
    assert b["server.command"]["source"].endswith("go-sdk.spec_overrides.2026-07-28")

    monkeypatch.setenv("TIERCHECK_SERVER_CMD", "./mine {port}")
    _, out_env, _ = run_cli(["show-config", "--sdk", "go-sdk", "--json"], capsys)
    for per_revision in json.loads(out_env)["revisions"].values():
        assert per_revision["server.command"] == {
            "value": "./mine {port}",
            "source": "TIERCHECK_SERVER_CMD",
        }
    _, out_flag, _ = run_cli(
        ["show-config", "--sdk", "go-sdk", "--server-cmd", "./flag {port}", "--json"], capsys
    )
    for per_revision in json.loads(out_flag)["revisions"].values():
        assert per_revision["server.command"]["source"] == "--server-cmd"


def test_unknown_sdk_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["show-config", "--sdk", "go-skd"], capsys)
    assert code == 2
    assert "unknown SDK 'go-skd'; did you mean 'go-sdk'?" in err
    with pytest.raises(UsageError):
        load_registry().get("nothing-like-it")


def test_start_up_imports_nothing_heavy() -> None:
    code = (
        "import sys, tiercheck.cli\n"
        "heavy = [m for m in ('github', 'git', 'rich', 'jsonschema', 'yaml', 'httpx', 'sqlite3', "
        "'tiercheck.scorecard.model', 'tiercheck.governance.signals', 'tiercheck.probes', "
        "'tiercheck.matrix.model', 'tiercheck.pipeline.matrix') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == ""


def test_version_and_module_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tiercheck", "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert result.stdout.startswith("tiercheck ")


# --- client timeouts' provenance, per-scenario client commands, show-config forms -----------


def test_an_entry_without_a_client_timeout_shows_it_as_plain_default() -> None:
    # go-sdk's client block sets only a command: its timeout was never set, so nothing was
    # "replaced" (the source used to read "default (replaced by …: go-sdk)").
    entry = load_registry().get("go-sdk")
    config = resolve(entry, "2025-11-25", environ={}, flags=ConfigFlags())
    assert config.values["client.timeout"].source == "default"
    assert config.values["client.timeout"].layer is Layer.DEFAULT


_JAVA_LIKE = """\
java-like:
  repo: o/java-like
  revisions: ["2025-11-25"]
  client:
    command: ./jdk-client
    commands:
      "auth/*": ./spring-client
      "sse-?etry": ./retry-client
"""


def test_client_commands_choose_per_scenario_pattern(tmp_path: Path) -> None:
    entry = load_registry(write_registry(tmp_path, _JAVA_LIKE)).get("java-like")
    config = resolve(entry, "2025-11-25", environ={}, flags=ConfigFlags())
    assert config.client_command_for("auth/metadata-default") == "./spring-client"
    assert config.client_command_for("auth/2025-03-26-oauth-metadata-backcompat") == (
        "./spring-client"
    )
    assert config.client_command_for("sse-retry") == "./retry-client"
    assert config.client_command_for("tools_call") == "./jdk-client"
    assert config.client_command_for("xauth/y") == "./jdk-client"


def test_a_client_command_from_a_higher_layer_replaces_the_patterns(tmp_path: Path) -> None:
    entry = load_registry(write_registry(tmp_path, _JAVA_LIKE)).get("java-like")
    flagged = resolve(
        entry, "2025-11-25", environ={}, flags=ConfigFlags({"--client-cmd": "./mine"})
    )
    assert flagged.client_commands == {}
    assert flagged.client_command == "./mine"
    assert flagged.client_command_for("auth/metadata-default") == "./mine"
    from_env = resolve(
        entry, "2025-11-25", environ={"TIERCHECK_CLIENT_CMD": "./env"}, flags=ConfigFlags()
    )
    assert from_env.client_command_for("auth/x") == "./env"


def _fake_client(path: Path, label: str, record: Path) -> None:
    path.write_text(f'#!/bin/sh\necho "{label} $MCP_CONFORMANCE_SCENARIO $*" >> {record}\n')
    path.chmod(0o755)


@pytest.mark.parametrize(
    "scenario",
    ["auth/metadata-default", "auth/x/y", "sse-retry", "sse-Xetry", "tools_call", "initialize"],
)
def test_the_dispatching_command_runs_what_command_for_chooses(
    tmp_path: Path, scenario: str
) -> None:
    record = tmp_path / "ran.txt"
    for name in ("jdk-client", "spring-client", "retry-client"):
        _fake_client(tmp_path / name, name, record)
    entry = load_registry(write_registry(tmp_path, _JAVA_LIKE)).get("java-like")
    config = resolve(entry, "2025-11-25", environ={}, flags=ConfigFlags())
    command = config.client_command
    assert command is not None
    # As the harness runs it: through a shell, the mock server URL appended as text.
    completed = subprocess.run(
        ["/bin/sh", "-c", f"{command} http://localhost:1234/mcp"],
        cwd=tmp_path,
        env={"MCP_CONFORMANCE_SCENARIO": scenario, "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert completed.returncode == 0
    chosen = config.client_command_for(scenario)
    assert chosen is not None
    label = chosen.removeprefix("./")
    assert record.read_text() == f"{label} {scenario} http://localhost:1234/mcp\n"


def test_the_dispatching_command_without_a_fallback_fails_unmatched_scenarios(
    tmp_path: Path,
) -> None:
    from tiercheck.config.dispatch import dispatch_command

    command = dispatch_command({"auth/*": "true"}, None)
    completed = subprocess.run(
        ["/bin/sh", "-c", f"{command} http://localhost:1/mcp"],
        env={"MCP_CONFORMANCE_SCENARIO": "tools_call", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 127
    assert "no client command for scenario tools_call" in completed.stderr


def test_show_config_lists_client_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = write_registry(tmp_path, _JAVA_LIKE)
    assert main(["show-config", "--sdk", "java-like", "--registry", str(registry), "--json"]) == 0
    values = json.loads(capsys.readouterr().out)["revisions"]["2025-11-25"]
    assert values["client.commands"]["value"] == {
        "auth/*": "./spring-client",
        "sse-?etry": "./retry-client",
    }
    assert values["client.commands"]["source"].endswith("known_sdks.yaml: java-like")


def test_show_config_accepts_owner_repo_as_the_assessment_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["show-config", "--sdk", "modelcontextprotocol/java-sdk", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["sdk"], shown["repo"]) == ("java-sdk", "modelcontextprotocol/java-sdk")
    assert main(["show-config", "--sdk", "java-sdk@main", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sdk"] == "java-sdk"
    # A repository no entry is named like is shown as the assessment would configure it:
    # by the flags and TIERCHECK_* variables alone.
    assert main(["show-config", "--sdk", "someone/unknown-sdk", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["sdk"], shown["repo"], shown["registered"]) == (
        "unknown-sdk",
        "someone/unknown-sdk",
        False,
    )


def test_java_sdk_entry_uses_localhost_and_its_ci_commands() -> None:
    entry = load_registry().get("java-sdk")
    assert entry.revisions == ("2025-11-25",)
    assert [str(r) for r in entry.requires] == ["java>=17", "mvn"]
    config = resolve(entry, "2025-11-25", environ={}, flags=ConfigFlags())
    assert config.server_url is not None
    assert config.server_url.startswith("http://localhost:")
    assert config.baseline("server") == "conformance-tests/conformance-baseline.yml"
    assert config.baseline("client") == "conformance-tests/conformance-baseline.yml"
    spring = config.client_command_for("auth/metadata-default")
    jdk = config.client_command_for("tools_call")
    assert spring is not None
    assert "client-spring-http-client" in spring
    assert jdk is not None
    assert "client-jdk-http-client" in jdk
