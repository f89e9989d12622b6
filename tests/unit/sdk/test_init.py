"""`tier-check init` on small repositories written here: the entry worked out by hand, the
file it writes loaded by tiercheck's own registry loader, and a hostile repository."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from support.gitutil import GitOrigin
from tiercheck.cli.app import main
from tiercheck.config.registry import load_registry
from tiercheck.config.yamlio import loads_yaml
from tiercheck.errors import ConfigError, UsageError
from tiercheck.pipeline.init import InitRequest, init
from tiercheck.revisions import known_revisions
from tiercheck.sdk.infer.entry import InferredEntry
from tiercheck.sdk.infer.registry_text import put_entry

pytestmark = pytest.mark.usefixtures("isolated_git")

R1, R2 = "2025-11-25", "2026-07-28"

CARGO = """\
[workspace]
members = ["crates/acme", "examples/conf-server", "examples/conf-client"]

[workspace.package]
rust-version = "1.85"
repository = "https://github.com/someone/elsewhere"
"""

MAIN_RS = """\
use clap::Parser;
#[derive(Parser)]
struct Args {
    /// Port for HTTP transport
    #[arg(long, default_value = "3001")]
    port: u16,
}
"""

SERVER_JOB = """\
  {job}:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v7
      - name: Build conformance server
        run: cargo build --manifest-path examples/conf-server/Cargo.toml
      - name: Start server
        run: |
          cargo run --manifest-path examples/conf-server/Cargo.toml \\
            > /tmp/server.log 2>&1 &
      - name: Run
        run: |
          npx -y "@modelcontextprotocol/conformance@${{{{ env.V }}}}" server \\
            --url http://127.0.0.1:3001/mcp \\
            --spec-version {rev} \\
            --expected-failures ./{baseline}
"""

CLIENT_JOB = """\
  {job}:
    steps:
      - run: cargo build --manifest-path examples/conf-client/Cargo.toml
      - run: |
          npx -y @modelcontextprotocol/conformance client --suite all \\
            --spec-version {rev} \\
            --command "cargo run --manifest-path examples/conf-client/Cargo.toml --" \\
            --expected-failures ./{baseline}
"""


def _rust_sdk(root: Path) -> GitOrigin:
    """A tower-mcp-like workspace: four runs, a baseline per leg and revision, a clap port."""
    workflow = "on: push\njobs:\n" + "".join(
        [
            SERVER_JOB.format(job="server", rev=R1, baseline="baseline.yml"),
            SERVER_JOB.format(job="server-next", rev=R2, baseline="baseline-next.yml"),
            CLIENT_JOB.format(job="client", rev=R1, baseline="baseline-client.yml"),
            CLIENT_JOB.format(job="client-next", rev=R2, baseline="baseline-next-client.yml"),
        ]
    )
    origin = GitOrigin(root)
    origin.commit(
        {
            "Cargo.toml": CARGO,
            "examples/conf-server/src/main.rs": MAIN_RS,
            ".github/workflows/conformance.yml": workflow,
        }
    )
    for tag in ("acme-v0.1.0", "acme-v0.2.0", "acme-macros-v0.1.0", "acme-macros-v0.2.0"):
        origin.tag(tag)
    origin.git("remote", "add", "origin", "git@github.com:acme/acme.git")
    return origin


# Worked out by hand from the files above: the origin remote (not the manifest's repository)
# names the repo; the workspace's name is the manifest's repository's; the tags' prefix is the
# one of the repo's name (`acme-v`, not `acme-macros-v`); the four runs give a baseline per
# leg and revision; the clap `port` field gives `--port`, after cargo's `--`.
RUST_ENTRY: dict[str, Any] = {
    "repo": "acme/acme",
    "default_ref": "main",
    "language": "Rust",
    "revisions": [R1, R2],
    "requires": ["cargo>=1.85"],
    "build": (
        "cargo build --manifest-path examples/conf-server/Cargo.toml && "
        "cargo build --manifest-path examples/conf-client/Cargo.toml"
    ),
    "server": {
        "command": "cargo run --manifest-path examples/conf-server/Cargo.toml -- --port {port}",
        "url": "http://127.0.0.1:{port}/mcp",
    },
    "client": {"command": "cargo run --manifest-path examples/conf-client/Cargo.toml --"},
    "expected_failures": {"server": "baseline.yml", "client": "baseline-client.yml"},
    "tag_prefix": "acme-v",
    "spec_overrides": {
        R2: {
            "expected_failures": {
                "server": "baseline-next.yml",
                "client": "baseline-next-client.yml",
            }
        }
    },
    # The client run names no version (npm's `latest`); the server's `${{ env.V }}` is set
    # nowhere the workflow says.
    "ci_harness": ["latest"],
}


@pytest.fixture(autouse=True)
def _two_revisions() -> None:
    assert known_revisions()[:2] == (R1, R2)


def test_a_rust_workspace_gives_every_value(tmp_path: Path) -> None:
    _rust_sdk(tmp_path / "acme")
    outcome = init(InitRequest(tmp_path / "acme"))
    assert outcome.entry.reasons == ()
    # The workspace has no [package]: its name is the repository's (the manifest's URL).
    assert outcome.entry.name == "elsewhere"
    assert dict(outcome.entry.body) == RUST_ENTRY
    assert loads_yaml(outcome.text, "out") == {"elsewhere": RUST_ENTRY}


def test_the_written_file_loads_with_the_registry_loader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _rust_sdk(tmp_path / "acme")
    target = tmp_path / "known_sdks.local.yaml"
    assert main(["init", str(tmp_path / "acme"), "--name", "acme", "--write", str(target)]) == 0
    assert capsys.readouterr().out == f"{target}: added the entry acme\n"
    entry = load_registry(target).get("acme")
    assert (entry.repo, entry.revisions, entry.tag_prefix) == ("acme/acme", (R1, R2), "acme-v")
    assert entry.raw["expected_failures"] == RUST_ENTRY["expected_failures"]


def test_write_replaces_its_entry_and_keeps_the_rest_of_the_file(tmp_path: Path) -> None:
    _rust_sdk(tmp_path / "acme")
    target = tmp_path / "reg.yaml"
    head = "# my SDKs\n\nother:\n  repo: a/b  # kept\n  revisions: ['2025-11-25']\n\n"
    tail = "# the last one\nlast:\n  repo: c/d\n  revisions: ['2025-11-25']\n"
    target.write_text(head + "acme:\n  repo: old/old\n  revisions: ['2025-11-25']\n\n" + tail)
    outcome = init(InitRequest(tmp_path / "acme", name="acme", write=target))
    assert outcome.replaced
    text = target.read_text()
    assert text.startswith(head + "acme:\n")
    assert text.endswith("\n" + tail)
    assert loads_yaml(text, "reg")["acme"] == RUST_ENTRY  # type: ignore[index]


def test_put_entry_appends_and_refuses_a_file_that_is_not_a_registry() -> None:
    entry = InferredEntry("x", {"repo": "a/x", "revisions": [R1]}, (("tag_prefix", "none"),))
    text, replaced = put_entry("y:\n  repo: a/y\n  revisions: ['2025-11-25']", entry, "f")
    assert not replaced
    assert text == (
        "y:\n  repo: a/y\n  revisions: ['2025-11-25']\n\n"
        "x:\n  # tag_prefix: none\n  repo: a/x\n  revisions:\n  - '2025-11-25'\n"
    )
    with pytest.raises(ConfigError):
        put_entry("- a\n- b\n", entry, "f")
    with pytest.raises(ConfigError):
        put_entry("a: [\n", entry, "f")
    with pytest.raises(ConfigError):  # a flow mapping has no lines of its own to replace
        put_entry("{x: {repo: a/x, revisions: ['2025-11-25']}, y: {repo: a/y}}\n", entry, "f")


def test_a_go_module_with_a_port_in_its_start_command(tmp_path: Path) -> None:
    workflow = """\
jobs:
  server:
    steps:
      - run: go build -o srv ./conformance/server
      - run: |
          ./srv -http=":3001" -stateless=false &
          npx -y "@modelcontextprotocol/conformance@1" server --url http://localhost:3001/mcp \\
            --spec-version 2025-11-25 --expected-failures ./conformance/baseline.yml
      - run: |
          ./srv -http=":3001" -stateless &
          npx -y "@modelcontextprotocol/conformance@1" server --url http://localhost:3001/mcp \\
            --spec-version 2026-07-28 --expected-failures ./conformance/baseline.yml
  client:
    steps:
      - run: |
          npx -y "@modelcontextprotocol/conformance@1" client \\
            --command "go run ./conformance/client" --expected-failures ./conformance/baseline.yml
"""
    origin = GitOrigin(tmp_path / "gofix")
    origin.commit(
        {
            "go.mod": "module github.com/acme/gofix\n\ngo 1.25.0\n",
            ".github/workflows/c.yml": workflow,
        }
    )
    origin.git("checkout", "--detach")
    outcome = init(InitRequest(tmp_path / "gofix"))
    assert outcome.entry.name == "gofix"
    assert dict(outcome.entry.body) == {
        "repo": "acme/gofix",
        "default_ref": "main",
        "language": "Go",
        "revisions": [R1, R2],
        "requires": ["go>=1.25"],
        "build": "go build -o srv ./conformance/server",
        "server": {
            "command": "./srv -http=:{port} -stateless=false",
            "url": "http://localhost:{port}/mcp",
        },
        # The client run names no revision: it stands for both.
        "client": {"command": "go run ./conformance/client"},
        "expected_failures": "conformance/baseline.yml",
        "spec_overrides": {R2: {"server": {"command": "./srv -http=:{port} -stateless"}}},
        "ci_harness": ["1"],
    }
    # Detached HEAD: main by default; no tags: no prefix. Each says why.
    assert dict(outcome.entry.reasons) == {
        "default_ref": "no branch is checked out: main",
        "tag_prefix": "no tag names a version (X.Y.Z)",
    }
    assert "  # default_ref: no branch is checked out: main\n" in outcome.text


def test_a_folder_that_is_no_repository_says_why_for_each_value(tmp_path: Path) -> None:
    (tmp_path / "bare").mkdir()
    outcome = init(InitRequest(tmp_path / "bare"))
    assert outcome.entry.name == "bare"
    assert dict(outcome.entry.body) == {"default_ref": "main", "revisions": [R1, R2]}
    assert [key for key, _ in outcome.entry.reasons] == [
        "repo",
        "default_ref",
        "language",
        "revisions",
        "requires",
        "server",
        "client",
        "tag_prefix",
        "name",
    ]
    with pytest.raises(UsageError, match="the entry has no repo"):
        init(InitRequest(tmp_path / "bare", write=tmp_path / "reg.yaml"))
    assert not (tmp_path / "reg.yaml").exists()


def test_bad_directory_and_name_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", str(tmp_path / "missing")]) == 2
    assert main(["init", str(tmp_path), "--name", "a: b"]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 2
    assert "Traceback" not in err


HOSTILE = """\
jobs:
  server:
    steps:
      - run: |
          ./srv --motto '{x}: [y] # not a comment' &
          npx @modelcontextprotocol/conformance server --url 'http://127.0.0.1/mcp' \\
            --spec-version 2025-11-25 \\
            --expected-failures 'evil: key # comment'
  client:
    steps:
      - run: |
          npx @modelcontextprotocol/conformance client --spec-version 2025-11-25 \\
            --command "node c.js
          injected: key
          # a comment" --expected-failures ./client.yml
"""

OUTSIDE = """\
jobs:
  j:
    steps:
      - run: >-
          npx @modelcontextprotocol/conformance client --spec-version 2026-07-28
          --command from-outside
"""


def test_a_hostile_repository_gives_only_values(tmp_path: Path) -> None:
    root = tmp_path / "hostile"
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "c.yml").write_text(HOSTILE)
    (tmp_path / "outside.yml").write_text(OUTSIDE)
    os.symlink(tmp_path / "outside.yml", root / ".github" / "workflows" / "linked.yml")
    (root / "package.json").write_text('{"name": "x\\n# y: z"}')
    # A repository script outside the folder is never read, whatever the workflow names.
    (root / ".github" / "workflows" / "z.yml").write_text(
        "jobs:\n  j:\n    steps:\n      - run: /etc/run-server.sh --spec-version 2025-11-25\n"
    )
    outcome = init(InitRequest(root))
    # The link out was not followed: its run (at 2026-07-28, `from-outside`) is nowhere.
    assert outcome.notes == (
        ".github/workflows/linked.yml: a link out of the folder: not read",
        "/etc/run-server.sh: outside the folder: not read",
    )
    assert outcome.entry.name == "hostile"
    body = dict(outcome.entry.body)
    assert body["revisions"] == [R1]
    assert body["server"] == {
        "command": "./srv --motto '{x}: [y] # not a comment'",
        "url": "http://127.0.0.1/mcp",
    }
    assert body["expected_failures"] == {"server": "evil: key # comment", "client": "client.yml"}
    assert "client" not in body
    reasons = dict(outcome.entry.reasons)
    assert (
        reasons["client.command"]
        == "the workflow's --command holds a line break or control character"
    )
    assert reasons["server.url"] == "server.url names no port"
    # The text holds exactly these values and comments: nothing the repository wrote became a key
    # or a comment line of its own.
    assert yaml.safe_load(outcome.text) == {"hostile": body}
    lines = outcome.text.splitlines()
    assert [line for line in lines if line.lstrip().startswith("#")] == [
        f"  # {key}: {why}" for key, why in outcome.entry.reasons
    ]
    assert "injected" not in outcome.text
    assert "from-outside" not in outcome.text


def test_without_write_the_entry_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _rust_sdk(tmp_path / "acme")
    assert main(["init", str(tmp_path / "acme"), "--name", "acme"]) == 0
    captured = capsys.readouterr()
    assert yaml.safe_load(captured.out) == {"acme": RUST_ENTRY}
    assert captured.err == ""
    assert not list(tmp_path.glob("*.yaml"))
