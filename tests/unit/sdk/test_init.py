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
        "build",
        "server",
        "client",
        "expected_failures",
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


# --- CI that drives the harness through scripts ----------------------------------------------

PY_WORKFLOW = """\
env:
  CONFORMANCE_VERSION: "0.2.0-alpha.11"
jobs:
  conformance:
    strategy:
      matrix:
        include:
          - spec: "2025-11-25"
            baseline: conformance/baseline.yml
          - spec: "2026-07-28"
            baseline: conformance/baseline-next.yml
    steps:
      - uses: actions/checkout@v4
      - run: uv sync --frozen
      - run: >-
          uv run python scripts/conformance.py server
          --spec ${{ matrix.spec }} --baseline ${{ matrix.baseline }}
"""

PY_SCRIPT = '''\
"""Run the conformance harness against the example server."""
import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVER = HERE.parent / "examples" / "server.py"
VERSION = os.environ.get("CONFORMANCE_VERSION", "latest")
PORT = os.environ.get("PORT", "8765")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("leg", choices=["server", "client"])
    parser.add_argument("--spec")
    parser.add_argument("--baseline", default="conformance/baseline.yml")
    args = parser.parse_args()
    url = f"http://127.0.0.1:{PORT}/mcp"
    server = subprocess.Popen([sys.executable, str(SERVER), "--port", PORT])
    try:
        cmd = ["npx", "-y", f"@modelcontextprotocol/conformance@{VERSION}", "server"]
        cmd += ["--url", url]
        if args.spec:
            cmd += ["--spec-version", args.spec]
        cmd.extend(["--expected-failures", args.baseline])
        return subprocess.run(cmd, check=False).returncode
    finally:
        server.terminate()


if __name__ == "__main__":
    sys.exit(main())
'''


def test_ci_that_drives_the_harness_from_a_python_script(tmp_path: Path) -> None:
    origin = GitOrigin(tmp_path / "pysdk")
    origin.commit(
        {
            "pyproject.toml": '[project]\nname = "pysdk"\nrequires-python = ">=3.11"\n',
            "uv.lock": "",
            "scripts/conformance.py": PY_SCRIPT,
            "examples/server.py": "print('a server')\n",
            ".github/workflows/conformance.yml": PY_WORKFLOW,
        }
    )
    origin.tag("v1.0.0")
    origin.git("remote", "add", "origin", "https://github.com/acme/pysdk.git")
    outcome = init(InitRequest(tmp_path / "pysdk"))
    # Worked out by hand: the matrix's two `include` entries are two runs of the script, each
    # given its revision (`--spec`, the script's own option, handed on as --spec-version) and
    # its baseline (`--baseline`, handed on as --expected-failures); the script's Popen starts
    # the server (`sys.executable` is python3, the path is built from `__file__`) on the port
    # it reads from PORT, which tiercheck exports.
    assert dict(outcome.entry.body) == {
        "repo": "acme/pysdk",
        "default_ref": "main",
        "language": "Python",
        "revisions": [R1, R2],
        "requires": ["python3>=3.11", "uv"],
        "build": "uv sync --frozen",
        "server": {
            "command": "python3 ./examples/server.py --port {port}",
            "url": "http://127.0.0.1:{port}/mcp",
        },
        "expected_failures": {"server": "conformance/baseline.yml"},
        "tag_prefix": "v",
        "spec_overrides": {R2: {"expected_failures": {"server": "conformance/baseline-next.yml"}}},
        "ci_harness": ["0.2.0-alpha.11"],
    }
    # The one value left out (no client run) has its line.
    assert dict(outcome.entry.reasons) == {
        "client": "no conformance client run in .github/workflows"
    }
    assert "  # client: no conformance client run in .github/workflows\n" in outcome.text
    assert outcome.notes == ()


SH_WORKFLOW = """\
jobs:
  server:
    steps:
      - uses: actions/checkout@v4
      - run: ./scripts/conformance.sh --baseline conformance/server-baseline.yml
  client:
    env:
      CONFORMANCE_VERSION: "0.2.0-alpha.11"
    steps:
      - run: go build ./...
      - run: node scripts/client-conformance.mjs
"""

SH_SCRIPT = """\
#!/usr/bin/env bash
set -euo pipefail
BASELINE="${BASELINE:-conformance/baseline.yml}"
PORT="${PORT:-3000}"
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) BASELINE="$2"; shift 2 ;;
    *) shift ;;
  esac
done
cd "$(dirname "$0")/.."
go build -o bin/server ./cmd/server
./bin/server -addr ":$PORT" > server.log 2>&1 &
trap 'kill $!' EXIT
npx -y @modelcontextprotocol/conformance server --url "http://localhost:$PORT/mcp" \\
  --expected-failures "$BASELINE"
"""

JS_SCRIPT = """\
// Runs the harness's client leg against the Go client.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    baseline: { type: "string", default: "conformance/client-baseline.yml" },
  },
});
const pkg = `@modelcontextprotocol/conformance@${process.env.CONFORMANCE_VERSION ?? "latest"}`;
const args = ["-y", pkg, "client", "--command", "go run ./cmd/client"];
args.push("--expected-failures", values.baseline);
const result = spawnSync("npx", args, { stdio: "inherit" });
process.exit(result.status ?? 1);
"""


def test_ci_that_drives_the_harness_from_a_shell_and_a_javascript_script(tmp_path: Path) -> None:
    origin = GitOrigin(tmp_path / "gosdk")
    origin.commit(
        {
            "go.mod": "module github.com/acme/gosdk\n\ngo 1.24\n",
            "scripts/conformance.sh": SH_SCRIPT,
            "scripts/client-conformance.mjs": JS_SCRIPT,
            ".github/workflows/conformance.yml": SH_WORKFLOW,
        }
    )
    outcome = init(InitRequest(tmp_path / "gosdk"))
    # Worked out by hand: the shell script takes --baseline in its `case` (the workflow gives
    # it), works in its parent folder (the root), builds and starts ./bin/server on $PORT and
    # hands the harness its URL; the JavaScript one hands the harness its own default baseline.
    # Neither names a --spec-version: both stand for every revision, which is said.
    assert dict(outcome.entry.body) == {
        "repo": "acme/gosdk",
        "default_ref": "main",
        "language": "Go",
        "revisions": [R1, R2],
        "requires": ["go>=1.24"],
        "build": "go build -o bin/server ./cmd/server && go build ./...",
        "server": {"command": "./bin/server -addr :{port}", "url": "http://localhost:{port}/mcp"},
        "client": {"command": "go run ./cmd/client"},
        "expected_failures": {
            "server": "conformance/server-baseline.yml",
            "client": "conformance/client-baseline.yml",
        },
        "ci_harness": ["0.2.0-alpha.11"],
    }
    assert dict(outcome.entry.reasons) == {
        "revisions": "the workflows' runs name no --spec-version: every known one",
        "tag_prefix": "no tag names a version (X.Y.Z)",
    }
    comments = [line for line in outcome.text.splitlines() if line.lstrip().startswith("#")]
    assert comments == [f"  # {key}: {why}" for key, why in outcome.entry.reasons]


def test_every_value_left_out_has_its_line(tmp_path: Path) -> None:
    # A workflow whose one run names no server start, no client and no baseline, and builds
    # nothing: build and expected_failures are left out with their lines, like the rest.
    origin = GitOrigin(tmp_path / "thin")
    origin.commit(
        {
            ".github/workflows/c.yml": (
                "jobs:\n  j:\n    steps:\n      - run: npx @modelcontextprotocol/conformance "
                "server --url http://localhost:3000/mcp\n"
            )
        }
    )
    outcome = init(InitRequest(tmp_path / "thin"))
    reasons = dict(outcome.entry.reasons)
    for key in ("build", "server.command", "client", "expected_failures", "language"):
        assert key in reasons, key
    assert reasons["build"] == "the conformance jobs build nothing before their runs"
    assert reasons["expected_failures"] == f"no run at {R1} gives --expected-failures"
    for key in reasons:
        assert f"  # {key}: " in outcome.text
