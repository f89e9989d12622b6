"""`doctor` and `show-config` read one plan of what an assessment would run: for the same SDK,
flags and environment, doctor's row is runnable exactly when its tools are ready and
`show-config` has a leg that would run, and says the same reason when none would.

The cases are the SDKs, flags and variables the other tests give either command (each id names
where it comes from), run through the real `tier-check`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tiercheck.cli.app import main

R1 = "2025-11-25"
SERVER = "./target/debug/conformance-server --transport http --port {port}"
URL = "http://127.0.0.1:{port}/mcp"
FLAGS = ["--server-cmd", SERVER, "--server-url", URL, "--client-cmd", "./conformance-client"]
REGISTRY = """\
bare-sdk:
  repo: example/bare-sdk
  revisions: ["2025-11-25"]
  requires: [python3>=3.0]
  build: "true"
only:
  repo: o/only
  revisions: ["2025-11-25"]
only-client:
  repo: o/only-client
  revisions: ["2025-11-25"]
  client: {command: ./c}
go-line:
  repo: o/go-line
  revisions: ["2025-11-25"]
  requires: [go>=1.25]
  client: {command: ./client}
py-line:
  repo: o/py-line
  revisions: ["2025-11-25"]
  requires: [uv]
  client: {command: ./client}
java-like:
  repo: o/java-like
  revisions: ["2025-11-25"]
  client:
    command: ./jdk-client
    commands:
      "auth/*": ./spring-client
server-url-only:
  repo: o/server-url-only
  revisions: ["2025-11-25", "2026-07-28"]
  server: {url: "http://127.0.0.1:{port}/mcp"}
"""
#: The hint `show-config` gives when nothing would run, before the plan's reason.
HINT = "nothing would run (exit 3): "


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A checkout no entry is named like, the registry file above, a private cache, and no
    TIERCHECK_* variable of the caller's but the npm registry's."""
    checkout = tmp_path / "widget-mcp"
    checkout.mkdir()
    (checkout / "conformance-baseline.yml").write_text("server: []\n", encoding="utf-8")
    registry = tmp_path / "known.yaml"
    registry.write_text(REGISTRY, encoding="utf-8")
    for name in list(os.environ):
        if name.startswith("TIERCHECK_") and name != "TIERCHECK_NPM_REGISTRY":
            monkeypatch.delenv(name)
    monkeypatch.setenv("TIERCHECK_CACHE", str(tmp_path / "cache"))
    return {"checkout": str(checkout), "registry": str(registry)}


def _argv(case: list[str], places: dict[str, str]) -> list[str]:
    return [arg.format_map(places) if arg.startswith("{") else arg for arg in case]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


CASES = {
    "test_unregistered: a checkout not in the registry": (["--sdk-path", "{checkout}"], {}),
    "test_unregistered: the flags configure it": (
        ["--sdk-path", "{checkout}", *FLAGS, "--expected-failures", "conformance-baseline.yml"],
        {},
    ),
    "test_unregistered: a Python client alone": (
        ["--sdk-path", "{checkout}", "--client-cmd", ".venv/bin/python conformance/client.py"],
        {},
    ),
    "TIERCHECK_CLIENT_CMD configures the checkout": (
        ["--sdk-path", "{checkout}"],
        {"TIERCHECK_CLIENT_CMD": "./c"},
    ),
    "the checkout of an entry with no command": (
        ["--sdk-path", "{checkout}", "--sdk", "bare-sdk", "--registry", "{registry}"],
        {},
    ),
    "test_config: go-sdk": (["--sdk", "go-sdk"], {}),
    "test_config: go-sdk, TIERCHECK_SERVER_CMD": (
        ["--sdk", "go-sdk"],
        {"TIERCHECK_SERVER_CMD": "./mine {port}"},
    ),
    "test_config: go-sdk, --server-cmd": (["--sdk", "go-sdk", "--server-cmd", "./flag {port}"], {}),
    "test_cli: every config flag": (
        ["--sdk", "go-sdk", *FLAGS, "--build-cmd", "make", "--ready-timeout", "5"],
        {},
    ),
    "test_cli: python-sdk-v1": (["--sdk", "python-sdk-v1"], {}),
    "test_config: OWNER/REPO": (["--sdk", "modelcontextprotocol/java-sdk"], {}),
    "test_config: NAME@REF": (["--sdk", "java-sdk@main"], {}),
    "test_config: a repository no entry is named like": (["--sdk", "someone/unknown-sdk"], {}),
    "test_config: client.commands": (["--sdk", "java-like", "--registry", "{registry}"], {}),
    "test_secrets: sample-sdk": (["--sdk", "sample-sdk"], {}),
    "test_hostile_inputs: --client-timeout": (
        ["--sdk", "sample-sdk", "--client-timeout", "2.5"],
        {},
    ),
    "test_upstream: a line with no command": (["--sdk", "only", "--registry", "{registry}"], {}),
    "test_upstream: a line with a client command": (
        ["--sdk", "only-client", "--registry", "{registry}"],
        {},
    ),
    "test_toolchain: OWNER/REPO of a line": (
        ["--sdk", "o/go-line", "--registry", "{registry}"],
        {},
    ),
    "test_toolchain: a provisioned tool": (["--sdk", "py-line", "--registry", "{registry}"], {}),
    "tools present, no command": (["--sdk", "bare-sdk", "--registry", "{registry}"], {}),
    "tools present, the client by flag": (
        ["--sdk", "bare-sdk", "--registry", "{registry}", "--client-cmd", "./c"],
        {},
    ),
    "tools present, the client by variable": (
        ["--sdk", "bare-sdk", "--registry", "{registry}"],
        {"TIERCHECK_CLIENT_CMD": "./c"},
    ),
    "a server URL without its command": (
        ["--sdk", "server-url-only", "--registry", "{registry}"],
        {},
    ),
}


def _agree(row: dict[str, object], shown: dict[str, object]) -> None:
    """Doctor's row says what `show-config` of the same SDK says would run."""
    assert row["sdk"] == shown["sdk"]
    would_run = shown["would_run"]
    assert isinstance(would_run, dict)
    runs = any(preview["legs"] for preview in would_run.values())
    assert ("nothing_would_run" in shown) is not runs
    tools = row["tools"]
    assert isinstance(tools, list)
    ready = all(tool["ok"] for tool in tools)
    assert row["runnable"] is (ready and runs)
    if not runs:
        hint = shown["nothing_would_run"]
        assert isinstance(hint, str)
        assert hint.startswith(HINT)
        assert isinstance(row["reason"], str)
        assert row["reason"].endswith(hint.removeprefix(HINT))


@pytest.mark.parametrize(("case", "env"), CASES.values(), ids=list(CASES))
def test_doctor_and_show_config_agree_on_what_would_run(
    case: list[str],
    env: dict[str, str],
    places: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    argv = _argv(case, places)
    code, out, _ = _run(["show-config", *argv, "--json"], capsys)
    assert code == 0
    shown = json.loads(out)
    code, out, _ = _run(["doctor", *argv, "--output", "json"], capsys)
    doctor = json.loads(out)
    (row,) = doctor["rows"]
    _agree(row, shown)
    assert code == (0 if row["runnable"] else 1)
    if "--sdk-path" in argv:
        assert doctor["would_run"] == shown["would_run"]


def test_every_row_of_doctor_agrees_with_show_config_of_its_line(
    places: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    registry = ["--registry", places["registry"]]
    _, out, _ = _run(["doctor", *registry, "--output", "json"], capsys)
    rows = json.loads(out)["rows"]
    # The bundled registry's lines, then the file's.
    names = [line.removesuffix(":") for line in REGISTRY.splitlines() if line[0] != " "]
    assert [row["sdk"] for row in rows][-len(names) :] == names
    for row in rows:
        code, out, _ = _run(["show-config", "--sdk", row["sdk"], *registry, "--json"], capsys)
        assert code == 0
        _agree(row, json.loads(out))


@pytest.mark.parametrize(
    ("case", "env"),
    [
        (["--sdk", "sample-sdk"], {"TIERCHECK_CLIENT_TIMEOUT": "nan"}),
        (["--sdk", "go-skd"], {}),
        (["--sdk", "java-sdk", "--expected-failures", "@2026-07-28=x.yml"], {}),
    ],
    ids=["test_hostile_inputs: a bad variable", "test_config: did you mean", "an unclaimed SPEC"],
)
def test_doctor_and_show_config_refuse_alike(
    case: list[str],
    env: dict[str, str],
    places: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    shown = _run(["show-config", *case], capsys)
    doctor = _run(["doctor", *case], capsys)
    assert (shown[0], doctor[0]) == (2, 2)
    assert shown[2] == doctor[2]
    assert len(shown[2].splitlines()) == 1


def test_a_line_with_its_tools_but_no_command_is_not_runnable(
    tmp_path: Path, places: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The case doctor and show-config disagreed on: a registry entry whose tools are all here
    but which gives no leg a command. Doctor said "runnable" (exit 0) while show-config said
    nothing would run, and the assessment measured nothing (exit 3)."""
    reason = (
        "no leg of bare-sdk has a command: set them in its registry entry or pass "
        "--server-cmd and --server-url, --client-cmd"
    )
    argv = ["--sdk", "bare-sdk", "--registry", places["registry"]]
    code, out, _ = _run(["show-config", *argv], capsys)
    assert code == 0
    assert out.splitlines()[-1] == HINT + reason
    code, out, _ = _run(["doctor", *argv], capsys)
    assert code == 1
    first, second = out.splitlines()[:2]
    assert first.split()[:4] == ["bare-sdk", "NOT", "runnable", "python3>=3.0"]
    assert second.strip() == reason
    code, out, _ = _run(["doctor", *argv, "--output", "json"], capsys)
    (row,) = json.loads(out)["rows"]
    assert (row["runnable"], row["reason"], row["tools"][0]["ok"]) == (False, reason, True)
    # Given a client command, the same line is runnable, by doctor as by show-config.
    assert main(["doctor", *argv, "--client-cmd", "./c"]) == 0
    capsys.readouterr()
    # The assessment stops as early as the plan says: after the checkout, before the harness.
    run = ["--sdk-path", places["checkout"], *argv, "--skip-governance", "--no-history"]
    code, _, err = _run([*run, "--out", str(tmp_path / "out")], capsys)
    assert code == 3
    assert "nothing was measured: no leg of bare-sdk has a command configured" in err
    assert not (tmp_path / "cache" / "harness").exists()
    doc = json.loads((tmp_path / "out" / "scorecard.json").read_text("utf-8"))
    revision = doc["revisions"][R1]
    assert [(revision[leg]["state"], revision[leg]["reason"]) for leg in ("server", "client")] == [
        ("skipped", "no server command/url configured"),
        ("skipped", "no client command configured"),
    ]
