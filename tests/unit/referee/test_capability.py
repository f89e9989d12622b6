"""What a harness release can run is read from the installed package, never from its version
number: a `--harness-version` that cannot run a revision as the referee does (flags, the set it
ships, the wire it speaks there) is refused in one line, and a 0.1.x release is said to run a
revision the `--spec-version` way when it lists scenarios for it.

The releases here are minimal packages the tests write: a `dist/index.js` that prints the help
and the listing recorded from the real release, and at `server --requirements SET` sends one
request to the URL it is given (the wire); they run on the `node` on PATH.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support.referee_releases import TODAY, answers
from tiercheck.conformance.harness import Harness
from tiercheck.errors import ConfigError
from tiercheck.pipeline.assess.provision import refuse_unfit_harness
from tiercheck.referee.bundle import Answers, read_bundle
from tiercheck.referee.capability import fit
from tiercheck.referee.harvest import ask_fit
from tiercheck.revisions import known_revisions

#: `server --help` and `client --help` of the real 0.1.16 (the npm `latest` tag), as recorded.
HELP_SERVER_0116 = """\
Usage: conformance server [options]

Run conformance tests against a server implementation

Options:
  --url <url>                 URL of the server to test
  --scenario <scenario>       Scenario to test (defaults to active suite if not
                              specified)
  --suite <suite>             Suite to run: "active" (default, excludes
                              pending), "all", or "pending" (default: "active")
  --expected-failures <path>  Path to YAML file listing expected failures
                              (baseline)
  -o, --output-dir <path>     Save results to this directory
  --spec-version <version>    Filter scenarios by spec version (cumulative for
                              date versions)
  --verbose                   Show verbose output (JSON instead of pretty print)
  -h, --help                  display help for command
"""
HELP_CLIENT_0116 = """\
Usage: conformance client [options]

Run conformance tests against a client implementation or start interactive mode

Options:
  --command <command>         Command to run the client
  --scenario <scenario>       Scenario to test
  --suite <suite>             Run a suite of tests in parallel (e.g., "auth")
  --timeout <ms>              Timeout in milliseconds (default: "30000")
  --expected-failures <path>  Path to YAML file listing expected failures
                              (baseline)
  -o, --output-dir <path>     Save results to this directory
  --spec-version <version>    Filter scenarios by spec version (cumulative for
                              date versions)
  --verbose                   Show verbose output
  -h, --help                  display help for command
"""
LIST_SERVER_0116 = """\
Server scenarios (test against a server):
  - server-initialize [2025-06-18,2025-11-25]
  - ping [2025-06-18,2025-11-25]
  - dns-rebinding-protection [2025-11-25]
"""
LIST_CLIENT_0116 = """\
Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
"""

_CLI = """\
const fs = require("fs");
const path = require("path");
const here = path.join(__dirname, "answers.json");
const a = JSON.parse(fs.readFileSync(here, "utf8"));
const argv = process.argv.slice(2);
const out = (text) => { process.stdout.write(text); process.exit(0); };
if (argv[1] === "--help" && a.help[argv[0]] !== undefined) out(a.help[argv[0]]);
if (argv[0] === "list" && a.list[argv[1]] !== undefined) out(a.list[argv[1]]);
const at = argv.indexOf("--requirements");
if (argv[0] === "server" && at >= 0 && a.help.server.includes("--requirements")) {
  const url = argv[argv.indexOf("--url") + 1];
  const set = argv[at + 1];
  const method = (a.wire[set] || "initialize");
  const params = method === "initialize" ? {protocolVersion: set} : {};
  fetch(url, {method: "POST", headers: {"content-type": "application/json",
    "mcp-protocol-version": set},
    body: JSON.stringify({jsonrpc: "2.0", id: 1, method, params})})
    .catch(() => {}).finally(() => process.exit(1));
} else {
  process.stderr.write("error: unknown option '" + (argv[at] || argv[1]) + "'\\n");
  process.exit(1);
}
"""


def _package(
    root: Path,
    version: str,
    helps: dict[str, str],
    lists: dict[str, str],
    *,
    sets: dict[str, str] | None = None,
    wire: dict[str, str] | None = None,
) -> Harness:
    """A minimal installed release under `root`, as the test records it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on PATH")
    package = root / "node_modules" / "@modelcontextprotocol" / "conformance"
    (package / "dist").mkdir(parents=True)
    meta = {"name": "@modelcontextprotocol/conformance", "version": version}
    (package / "package.json").write_text(json.dumps(meta), "utf-8")
    (package / "dist" / "index.js").write_text(_CLI, "utf-8")
    data = {"help": helps, "list": lists, "wire": wire or {}}
    (package / "dist" / "answers.json").write_text(json.dumps(data), "utf-8")
    for name, text in (sets or {}).items():
        (package / "requirements").mkdir(exist_ok=True)
        (package / "requirements" / f"{name}.yaml").write_text(text, "utf-8")
    return Harness(Path(node), package / "dist" / "index.js", version, "v0")


class _Quiet:
    """A progress sink that keeps what it is told."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def step(self, name: str, detail: str = "") -> None:
        self.said.append(detail)

    def done(self, name: str, detail: str = "", *, ok: bool = True) -> None:
        self.said.append(detail)

    def warn(self, text: str) -> None:
        self.said.append(text)

    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None:
        return


def _old(tmp_path: Path) -> Harness:
    return _package(
        tmp_path,
        "0.1.16",
        {"server": HELP_SERVER_0116, "client": HELP_CLIENT_0116},
        {"--server": LIST_SERVER_0116, "--client": LIST_CLIENT_0116},
    )


def _like_today(tmp_path: Path, sets: list[str], wire: dict[str, str]) -> Harness:
    recorded = answers(TODAY)
    return _package(
        tmp_path,
        "9.9.9-test",
        {"server": recorded.helps["server"], "client": recorded.helps["client"]},
        {f"--{leg}": recorded.listings[leg] for leg in ("server", "client")},
        sets={name: recorded.sets[name] for name in sets},
        wire=wire,
    )


def test_a_release_without_requirement_sets_is_refused_in_one_line(tmp_path: Path) -> None:
    harness = _old(tmp_path)
    with pytest.raises(ConfigError) as refused:
        refuse_unfit_harness(harness, known_revisions(), _Quiet())
    line = refused.value.message
    assert "\n" not in line
    assert line.startswith(f"harness 0.1.16 cannot run {' or '.join(known_revisions())} ")
    assert "as the referee does" in line
    assert "`server` and `client` take no --requirements" in line
    assert "it ships no requirement sets" in line
    assert refused.value.exit_code == 2


def test_an_old_release_runs_what_it_lists_the_spec_version_way(tmp_path: Path) -> None:
    first, last = known_revisions()[0], known_revisions()[-1]
    reading = read_bundle(ask_fit(_old(tmp_path), [first, last]))
    older = fit(reading, first)
    assert (older.way, older.as_referee) == ("spec-version", False)
    newer = fit(reading, last)
    assert newer.way is None
    assert f"it lists no scenario for {last}" in newer.cannot()


def test_a_release_that_runs_every_revision_as_the_referee_passes(tmp_path: Path) -> None:
    wire = {"2025-11-25": "initialize", "2026-07-28": "server/discover"}
    harness = _like_today(tmp_path, ["2025-11-25", "2026-07-28"], wire)
    progress = _Quiet()
    refuse_unfit_harness(harness, known_revisions(), progress)
    assert any("as the referee does" in said for said in progress.said)


def test_a_release_speaking_another_wire_at_a_set_is_refused(tmp_path: Path) -> None:
    wire = {"2025-11-25": "initialize", "2026-07-28": "initialize"}
    harness = _like_today(tmp_path, ["2025-11-25", "2026-07-28"], wire)
    with pytest.raises(ConfigError, match=r"at set 2026-07-28 it speaks stateful"):
        refuse_unfit_harness(harness, known_revisions(), _Quiet())


def test_a_release_without_a_revisions_set_is_refused_for_it(tmp_path: Path) -> None:
    harness = _like_today(tmp_path, ["2025-11-25"], {"2025-11-25": "initialize"})
    refuse_unfit_harness(harness, ["2025-11-25"], _Quiet())
    with pytest.raises(ConfigError) as refused:
        refuse_unfit_harness(harness, known_revisions(), _Quiet())
    assert "cannot run 2026-07-28 as the referee does: it ships no requirement set" in str(
        refused.value
    )
    assert "(it ships 2025-11-25)" in str(refused.value)


def test_the_recorded_referee_runs_every_revision_as_the_referee_does() -> None:
    reading = read_bundle(answers(TODAY))
    assert all(fit(reading, r).as_referee for r in known_revisions())


def test_unreadable_help_is_said_not_guessed() -> None:
    reading = read_bundle(Answers("0.0.1"))
    found = fit(reading, known_revisions()[0])
    assert found.way is None
    assert "`server --help` could not be read" in found.refusal()
    assert "its scenarios could not be listed" in found.cannot()


def test_the_test_package_fixture_is_what_the_help_says() -> None:
    # The recorded help is 0.1.16's own: no --requirements anywhere, --spec-version on both.
    for text in (HELP_SERVER_0116, HELP_CLIENT_0116):
        flags = read_bundle(Answers("x", helps={"server": text})).flags["server"]
        assert "--requirements" not in flags
        assert "--spec-version" in flags
