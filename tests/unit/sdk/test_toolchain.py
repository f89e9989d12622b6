"""Required tools: `requires` parsing, probes of fake tools on PATH, `doctor`, and the check
that stops an assessment before its checkout when the machine lacks a tool.

The fake tools are shell scripts written by the tests into a folder that is then the whole
PATH, so what is "installed" is exactly what each test wrote.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import textwrap
import time
from pathlib import Path

import pytest

from tiercheck.cli.app import main
from tiercheck.config.requires import (
    Requirement,
    parse_requirement,
    parse_requirements,
    version_at_least,
)
from tiercheck.errors import ConfigError
from tiercheck.sdk.toolchain import check_tools, toolchain_pin_problem


def _fake_tool(bin_dir: Path, name: str, output: str, *, stream: str = "stdout") -> None:
    bin_dir.mkdir(parents=True, exist_ok=True)
    redirect = " >&2" if stream == "stderr" else ""
    script = bin_dir / name
    # Only shell built-ins: PATH holds nothing but the fake tools.
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' {shlex.quote(output)}{redirect}\n", "utf-8")
    script.chmod(0o755)


def _registry(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "known_sdks.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


# --- requires -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("go>=1.23", Requirement("go", "1.23")),
        ("cargo", Requirement("cargo", None)),
        (" java >= 17 ", Requirement("java", "17")),
        ("dotnet>=10", Requirement("dotnet", "10")),
    ],
)
def test_requirement_forms(text: str, expected: Requirement) -> None:
    assert parse_requirement(text, "x") == expected


@pytest.mark.parametrize(
    ("items", "fragment"),
    [
        (["go>1.23"], "is not TOOL or TOOL>=VERSION"),
        (["gcc"], "unknown tool 'gcc'"),
        (["go", "go>=1.2"], "go is listed twice"),
        ("go", "expected a list"),
    ],
)
def test_bad_requires_is_one_config_error(items: object, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        parse_requirements(items, "known_sdks.yaml: x.requires")


@pytest.mark.parametrize(
    ("found", "minimum", "ok"),
    [
        ("1.26.8", "1.25", True),
        ("1.25.0", "1.25", True),
        ("1.9.0", "1.25", False),
        ("1.10", "1.9", True),  # numeric, not lexical
        ("17.0.15", "17", True),
        ("11.0.2", "17", False),
        ("10.0.101", "10", True),
    ],
)
def test_version_comparison(found: str, minimum: str, ok: bool) -> None:
    assert version_at_least(found, minimum) is ok


def test_registry_rejects_an_unknown_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = _registry(
        tmp_path,
        """
        x:
          repo: o/x
          revisions: ["2025-11-25"]
          requires: [go>=1.23, zig]
        """,
    )
    assert main(["doctor", "--registry", str(registry)]) == 2
    err = capsys.readouterr().err
    assert "x.requires[1]: unknown tool 'zig'" in err
    assert "Traceback" not in err


# --- probes and doctor ----------------------------------------------------------------------


def test_probe_found_missing_too_old_and_from_stderr(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    _fake_tool(bin_dir, "go", "go version go1.26.8 linux/amd64")
    _fake_tool(bin_dir, "ruby", "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux]")
    # `java -version` answers on stderr.
    _fake_tool(bin_dir, "java", 'openjdk version "17.0.15" 2025-04-15', stream="stderr")
    env = {"PATH": str(bin_dir)}
    wanted = parse_requirements(["go>=1.25", "java>=17", "ruby>=3.2", "dotnet>=10"], "t")
    statuses = {s.tool: s for s in check_tools(wanted, env)}
    assert (statuses["go"].state, statuses["go"].found) == ("found", "1.26.8")
    assert (statuses["java"].state, statuses["java"].found) == ("found", "17.0.15")
    assert (statuses["ruby"].state, statuses["ruby"].found) == ("too-old", "3.1.2")
    assert statuses["ruby"].reason == (
        f"ruby 3.2 or newer is required, found 3.1.2 at {bin_dir / 'ruby'}; "
        "install Ruby (apt-get install ruby-full, or rbenv)"
    )
    assert statuses["dotnet"].state == "missing"
    assert statuses["dotnet"].reason == (
        "dotnet 10 or newer is required but not on PATH; install the .NET SDK (dot.net/download)"
    )


def test_a_missing_registry_tool_is_marked_for_provisioning(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path / "empty")}
    (status,) = check_tools(parse_requirements(["uv"], "t"), env)
    assert (status.state, status.ok) == ("provision", True)


#: Three lines with a client command each, so their tools alone decide whether they run here.
_DOCTOR_REGISTRY = """
    go-line:
      repo: o/go-line
      revisions: ["2025-11-25"]
      requires: [go>=1.25]
      client: {command: ./client}
    ruby-line:
      repo: o/ruby-line
      revisions: ["2025-11-25"]
      requires: [ruby>=3.2, bundle]
      client: {command: ./client}
    py-line:
      repo: o/py-line
      revisions: ["2025-11-25"]
      requires: [uv]
      client: {command: ./client}
"""


def test_doctor_json_matches_the_fake_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bin_dir = tmp_path / "bin"
    _fake_tool(bin_dir, "go", "go version go1.26.8 linux/amd64")
    _fake_tool(bin_dir, "ruby", "ruby 3.1.2p20 (2022-04-12) [x86_64-linux]")
    monkeypatch.setenv("PATH", str(bin_dir))
    registry = _registry(tmp_path, _DOCTOR_REGISTRY)
    argv = ["doctor", "--registry", str(registry), "--output", "json"]
    code = main([*argv, "--cache-dir", str(tmp_path / "cache")])
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"rows", "harness"}
    # The file's lines follow the bundled registry's (a registry file adds to it).
    rows = doc["rows"][-3:]
    assert code == 1  # ruby-line is not runnable
    by_sdk = {row["sdk"]: row for row in rows}
    assert [row["sdk"] for row in rows] == ["go-line", "ruby-line", "py-line"]
    go = by_sdk["go-line"]
    assert go["runnable"] is True
    assert go["tools"] == [
        {
            "tool": "go",
            "needed": "1.25",
            "state": "found",
            "found": "1.26.8",
            "path": str(bin_dir / "go"),
            "ok": True,
            "provisioned": None,
        }
    ]
    ruby = by_sdk["ruby-line"]
    assert ruby["runnable"] is False
    assert [(t["tool"], t["state"], t["found"]) for t in ruby["tools"]] == [
        ("ruby", "too-old", "3.1.2"),
        ("bundle", "missing", None),
    ]
    assert "ruby 3.2 or newer is required, found 3.1.2" in ruby["reason"]
    assert "bundle is required but not on PATH" in ruby["reason"]
    py = by_sdk["py-line"]
    assert py["runnable"] is True
    assert py["tools"][0]["state"] == "provision"
    assert py["tools"][0]["provisioned"] == {"version": "0.13.8", "cached": False}


def test_doctor_for_one_sdk_exits_0_when_it_is_runnable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bin_dir = tmp_path / "bin"
    _fake_tool(bin_dir, "go", "go version go1.25.0 linux/amd64")
    monkeypatch.setenv("PATH", str(bin_dir))
    registry = _registry(tmp_path, _DOCTOR_REGISTRY)
    assert main(["doctor", "--registry", str(registry), "--sdk", "o/go-line"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["go-line", "runnable", "go>=1.25", "1.25.0"]
    assert out.splitlines()[1].startswith("harness: @modelcontextprotocol/conformance ")


# --- the check before the checkout ------------------------------------------------------------


def test_missing_toolchain_makes_every_leg_unmeasured_before_any_clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bin_dir = tmp_path / "bin"
    _fake_tool(bin_dir, "ruby", "ruby 3.1.2p20 (2022-04-12) [x86_64-linux]")
    monkeypatch.setenv("PATH", str(bin_dir))
    registry = _registry(
        tmp_path,
        """
        ruby-line:
          repo: o/ruby-line
          revisions: ["2025-11-25", "2026-07-28"]
          requires: [ruby>=3.2, bundle]
          build: bundle install
          server: {command: "bundle exec server {port}", url: "http://127.0.0.1:{port}/mcp"}
          client: {command: bundle exec client}
          expected_failures: conformance/expected_failures.yml
        """,
    )
    cache, out = tmp_path / "cache", tmp_path / "out"
    argv = ["--sdk", "ruby-line", "--registry", str(registry), "--skip-governance"]
    argv += ["--git-url", (tmp_path / "no-such-repo").as_uri(), "--cache-dir", str(cache)]
    code = main([*argv, "--out", str(out), "--output", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 3  # every leg unmeasured: nothing was measured
    assert not (cache / "repos").exists()  # nothing was cloned
    assert (out / "scorecard.json").is_file()
    reason = (
        "ruby 3.2 or newer is required, found 3.1.2 at "
        f"{bin_dir / 'ruby'}; install Ruby (apt-get install ruby-full, or rbenv); "
        "bundle is required but not on PATH; install Bundler (gem install bundler)"
    )
    # The only reason: no "baseline not found in the checkout" for a tree never checked out.
    assert doc["unmeasured"] == [{"what": "toolchain", "reason": reason}]
    for revision in ("2025-11-25", "2026-07-28"):
        for leg in ("server", "client"):
            verdict = doc["revisions"][revision][leg]
            assert (verdict["state"], verdict["reason"]) == ("unmeasured", reason)
    assert doc["harness"]["tools"]["ruby"] == {
        "version": "3.1.2",
        "source": "too-old",
        "path": str(bin_dir / "ruby"),
    }
    assert doc["build"] is None


# --- toolchain pins inside the SDK ------------------------------------------------------------


def _fake_rustup(bin_dir: Path, *toolchains: str) -> None:
    _fake_tool(bin_dir, "rustup", "\n".join(toolchains))


def test_rust_pin_that_is_not_installed_names_the_override(tmp_path: Path) -> None:
    bin_dir, checkout = tmp_path / "bin", tmp_path / "sdk"
    checkout.mkdir()
    (checkout / "rust-toolchain.toml").write_text('[toolchain]\nchannel = "1.96"\n')
    _fake_rustup(
        bin_dir,
        "stable-x86_64-unknown-linux-gnu (active, default)",
        "1.95.0-x86_64-unknown-linux-gnu",
    )
    problem = toolchain_pin_problem(checkout, {"PATH": str(bin_dir)})
    assert problem == (
        "rust-toolchain.toml pins Rust 1.96, which is not installed (installed: stable, 1.95.0); "
        "set RUSTUP_TOOLCHAIN=stable (the entry's env, or the environment) to build with an "
        "installed toolchain, or run `rustup toolchain install 1.96`"
    )
    # The override, set where the SDK's environment is configured, meets it.
    env = {"PATH": str(bin_dir), "RUSTUP_TOOLCHAIN": "stable"}
    assert toolchain_pin_problem(checkout, env) is None


@pytest.mark.parametrize(
    "installed", ["1.96.0-x86_64-unknown-linux-gnu", "1.96-x86_64-unknown-linux-gnu"]
)
def test_rust_pin_that_is_installed_is_no_problem(tmp_path: Path, installed: str) -> None:
    bin_dir, checkout = tmp_path / "bin", tmp_path / "sdk"
    checkout.mkdir()
    (checkout / "rust-toolchain.toml").write_text('[toolchain]\nchannel = "1.96"\n')
    _fake_rustup(bin_dir, "stable-x86_64-unknown-linux-gnu (default)", installed)
    assert toolchain_pin_problem(checkout, {"PATH": str(bin_dir)}) is None


def test_rust_pin_1_9_is_not_met_by_1_96(tmp_path: Path) -> None:
    bin_dir, checkout = tmp_path / "bin", tmp_path / "sdk"
    checkout.mkdir()
    (checkout / "rust-toolchain").write_text("1.9\n")
    _fake_rustup(bin_dir, "1.96.0-x86_64-unknown-linux-gnu")
    problem = toolchain_pin_problem(checkout, {"PATH": str(bin_dir)})
    assert problem is not None
    assert problem.startswith("rust-toolchain pins Rust 1.9, which is not installed")


def test_probe_of_a_hanging_tool_is_bounded(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "go"
    # A loop of shell built-ins that never ends (PATH holds no sleep).
    script.write_text("#!/bin/sh\nwhile :; do :; done\n")
    script.chmod(0o755)
    began = time.monotonic()
    (status,) = check_tools(parse_requirements(["go"], "t"), {"PATH": str(bin_dir)}, timeout_s=0.2)
    assert status.state == "broken"
    assert "did not report a version" in status.reason
    assert time.monotonic() - began < 20  # bounded by the injected timeout, not the sleep


def test_a_ref_less_clone_records_the_default_branch_and_an_unmet_pin_halts_before_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An SDK no registry entry knows, named without a ref: the clone is at origin's default
    # branch ("trunk" here), which the progress and the scorecard name (not "@None"/null).
    from support.gitutil import GitOrigin

    origin = GitOrigin(tmp_path / "origin")
    sha = origin.commit({"rust-toolchain.toml": '[toolchain]\nchannel = "1.96"\n'}, "first")
    origin.git("branch", "-m", "main", "trunk")
    bin_dir = tmp_path / "bin"
    _fake_rustup(bin_dir, "stable-x86_64-unknown-linux-gnu (default)")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.delenv("RUSTUP_TOOLCHAIN", raising=False)
    out = tmp_path / "out"
    argv = ["--sdk", "acme/widget-sdk", "--git-url", origin.url, "--skip-governance"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--out", str(out), "--output", "json"]
    code = main(argv)
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert code == 3  # every leg unmeasured: nothing was measured
    assert (doc["branch"], doc["sdk"]["ref"], doc["sdk"]["commit"]) == ("trunk", "trunk", sha)
    assert f"acme/widget-sdk@trunk is {sha[:12]}" in captured.err
    assert "@None" not in captured.err
    (entry,) = doc["unmeasured"]
    assert entry["what"] == "toolchain"
    assert entry["reason"].startswith("rust-toolchain.toml pins Rust 1.96, which is not installed")
    assert doc["build"] is None  # no build was started


def test_missing_toolchain_with_github_refusing_still_writes_the_scorecard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Live governance against a GitHub that cannot be connected to (a port bound by us but not
    # listening refuses every connection): the legs are unmeasured for the missing tool, and
    # each governance signal is inconclusive for the refused connection, not for a retry
    # budget spent per fact group.
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    for name in ("GITHUB_TOKEN", "GH_TOKEN", "GITHUB_API_URL"):
        monkeypatch.delenv(name, raising=False)
    registry = _registry(
        tmp_path,
        """
        dotnet-line:
          repo: o/dotnet-line
          revisions: ["2025-11-25"]
          requires: [dotnet>=10]
          build: dotnet build
          server: {command: "dotnet run {port}", url: "http://127.0.0.1:{port}/mcp"}
          client: {command: dotnet run client}
        """,
    )
    cache, out = tmp_path / "cache", tmp_path / "out"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as refusing:
        refusing.bind(("127.0.0.1", 0))
        port = refusing.getsockname()[1]
        argv = ["--sdk", "dotnet-line", "--registry", str(registry), "--cache-dir", str(cache)]
        argv += ["--github-api-url", f"http://127.0.0.1:{port}"]
        argv += ["--git-url", (tmp_path / "no-such-repo").as_uri()]
        code = main([*argv, "--out", str(out), "--output", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 3  # every leg unmeasured: nothing was measured
    assert not (cache / "repos").exists()
    assert (out / "scorecard.json").is_file()
    missing = (
        "dotnet 10 or newer is required but not on PATH; install the .NET SDK (dot.net/download)"
    )
    for leg in ("server", "client"):
        assert doc["revisions"]["2025-11-25"][leg]["reason"] == missing
    refused = f"cannot connect to GitHub (127.0.0.1:{port}: connection refused)"
    for check in ("labels", "triage", "p0_resolution", "stable_release", "spec_tracking"):
        assert (doc["checks"][check]["status"], doc["checks"][check]["reason"]) == (
            "inconclusive",
            refused,
        ), check
