"""The pure parts of `tier-check init`: shell splitting, workflows, manifests, tags."""

from __future__ import annotations

import pytest

from tiercheck.sdk.infer.manifest import github_repo, language_of, read_manifests
from tiercheck.sdk.infer.shell import ShellCommand, split_commands
from tiercheck.sdk.infer.tags import tag_prefix
from tiercheck.sdk.infer.workflow import Package, read_workflows, rebase_command


def test_shell_splits_commands_drops_redirections_and_comments() -> None:
    text = (
        "# the tool's exit code (an apostrophe in a comment)\n"
        "cargo run --manifest-path a/Cargo.toml \\\n  > /tmp/log 2>&1 &\n"
        "echo $! > pid\n"
        "PORT=1 npx -y pkg server --url 'http://x:1/m#frag' | tee out && b; c\n"
    )
    assert split_commands(text) == [
        ShellCommand(("cargo", "run", "--manifest-path", "a/Cargo.toml"), background=True),
        ShellCommand(("echo", "$!")),
        ShellCommand(("npx", "-y", "pkg", "server", "--url", "http://x:1/m#frag"), env=("PORT=1",)),
        ShellCommand(("tee", "out")),
        ShellCommand(("b",)),
        ShellCommand(("c",)),
    ]


def test_an_unclosed_quote_is_no_command() -> None:
    assert split_commands("npx 'conformance server") == []


WORKFLOW = """
jobs:
  server:
    steps:
      - uses: actions/checkout@v7
      - run: go build -o srv ./conformance/server
      - run: |
          ./srv -http=":3001" &
          npx -y "@modelcontextprotocol/conformance@1" server --url http://localhost:3001/mcp \\
            --spec-version 2025-11-25 --expected-failures=./base.yml
  lint:
    steps:
      - run: go build ./...
"""


def test_a_workflow_run_with_its_server_start_and_its_jobs_builds() -> None:
    facts = read_workflows({"ci.yml": WORKFLOW})
    (run,) = facts.runs
    assert (run.leg, run.revision, run.baseline, run.url) == (
        "server",
        "2025-11-25",
        "base.yml",
        "http://localhost:3001/mcp",
    )
    assert run.server_start == ("./srv", "-http=:3001")
    # The lint job runs no harness: its build is not the conformance build.
    assert facts.builds == ("go build -o srv ./conformance/server",)


def test_a_package_script_is_followed_into_its_package_folder() -> None:
    packages = {
        "": Package("root", {"conf": "pnpm --filter @acme/conf run client"}),
        "test/conf": Package(
            "@acme/conf",
            {
                "client": "conformance client --command 'node ./src/c.js' "
                "--expected-failures ./ef.yaml"
            },
        ),
    }
    facts = read_workflows(
        {"w.yml": "jobs:\n  j:\n    steps:\n      - run: pnpm run conf\n"}, packages
    )
    (run,) = facts.runs
    assert (run.leg, run.command, run.baseline) == (
        "client",
        "node test/conf/src/c.js",
        "test/conf/ef.yaml",
    )


def test_a_wrapper_script_given_the_harness_flags_is_a_run_of_the_leg_its_name_says() -> None:
    text = "jobs:\n  j:\n    steps:\n      - run: ./ci/run-server.sh --spec-version 2026-07-28\n"
    (run,) = read_workflows({"w.yml": text}).runs
    assert (run.leg, run.wrapper, run.server_start) == ("server", "ci/run-server.sh", None)


def test_a_workflow_that_is_not_yaml_is_a_note() -> None:
    facts = read_workflows({"bad.yml": "jobs: [\n"})
    assert facts.runs == ()
    assert facts.notes
    assert facts.notes[0].startswith("bad.yml: not read")


def test_rebase_keeps_a_root_file_runnable() -> None:
    assert rebase_command("node ../x.js --a ./b", "sub") == "node ./x.js --a sub/b"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"go.mod": "module github.com/acme/thing/v2\n\ngo 1.24.3\n"},
            ("thing", "Go", "acme/thing", ("go>=1.24",)),
        ),
        (
            {
                "package.json": '{"name": "@acme/sdk", "engines": {"node": ">=20"}, '
                '"repository": {"url": "git+https://github.com/acme/sdk-ts.git"}}',
                "pnpm-lock.yaml": None,
            },
            ("sdk", "TypeScript", "acme/sdk-ts", ("node>=20", "pnpm")),
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "acme"\nrequires-python = ">=3.11"\n'
                '[project.urls]\nSource = "https://github.com/acme/acme-py"\n',
                "uv.lock": None,
            },
            ("acme", "Python", "acme/acme-py", ("python3>=3.11", "uv")),
        ),
        (
            {
                "Cargo.toml": '[workspace]\nmembers = ["a"]\n[workspace.package]\n'
                'rust-version = "1.90"\nrepository = "https://github.com/acme/tower"\n'
            },
            ("tower", "Rust", "acme/tower", ("cargo>=1.90",)),
        ),
        # quarkus-mcp-server's root pom.xml: its JDK comes from its parent, its repo from <scm>.
        (
            {
                "pom.xml": "<project><parent><artifactId>p</artifactId></parent>"
                "<!-- <maven.compiler.release>8</maven.compiler.release> -->"
                "<scm><connection>scm:git:git@github.com:acme/j.git</connection>"
                "<url>https://github.com/acme/java-mcp</url></scm></project>",
                "mvnw": None,
            },
            (None, "Java", "acme/java-mcp", ("java", "mvn")),
        ),
        (
            {"pom.xml": "<properties><maven.compiler.release>17</maven.compiler.release>"},
            (None, "Java", None, ("java>=17", "mvn")),
        ),
        (
            {"pom.xml": "<properties><java.version>1.8</java.version></properties>"},
            (None, "Java", None, ("java>=8", "mvn")),
        ),
    ],
)
def test_manifests(files: dict[str, str | None], expected: tuple[object, ...]) -> None:
    facts = read_manifests(files)
    assert (facts.name, facts.language, facts.repo, facts.requires) == expected


def test_language_of_the_other_manifests() -> None:
    assert language_of({"Acme.csproj", "README.md"}) == "C#"
    assert language_of({"acme.gemspec"}) == "Ruby"
    assert language_of({"README.md"}) is None


def test_github_repo_reads_ssh_and_https() -> None:
    assert github_repo("git@github.com:acme/x.git") == "acme/x"
    assert github_repo("https://github.com/acme/x") == "acme/x"
    assert github_repo("https://gitlab.com/acme/x") is None


@pytest.mark.parametrize(
    ("tags", "name", "expected"),
    [
        (["v1.0.0", "v1.1.0", "latest"], "x", ("v", None)),
        (
            ["tower-v0.1.0", "tower-macros-v0.1.0", "tower-macros-v0.2.0"],
            "tower",
            ("tower-v", None),
        ),
        (["v1.0.0", "v2.0.0", "tools/v0.1.0"], "x", ("v", None)),
        (["1.0.0"], "x", ("", None)),
        # No prefix is the name's: the one the others extend.
        (
            ["rmcp-v0.1.0", "rmcp-macros-v0.1.0", "rmcp-macros-v0.2.0", "tool-v1.0.0"],
            "x",
            ("rmcp-v", None),
        ),
    ],
)
def test_tag_prefix(tags: list[str], name: str, expected: tuple[str | None, str | None]) -> None:
    assert tag_prefix(tags, name) == expected


def test_tag_prefix_says_why_it_cannot_tell() -> None:
    prefix, why = tag_prefix(["a-v1.0.0", "b-v1.0.0", "b-v1.1.0", "a-b-v1.0.0", "b-c-v1.0.0"], "c")
    assert prefix is None
    assert why is not None
    assert "b-vX.Y.Z" in why  # a and b both have companions: neither is the one
    assert tag_prefix(["nightly"], "c") == (None, "no tag names a version (X.Y.Z)")


def test_a_hash_inside_quotes_or_a_word_is_no_comment() -> None:
    text = "echo hi # it's\nnpx x --u '#a' c#d \"two\n# lines\" && z"
    assert split_commands(text) == [
        ShellCommand(("echo", "hi")),
        ShellCommand(("npx", "x", "--u", "#a", "c#d", "two\n# lines")),
        ShellCommand(("z",)),
    ]


RUN_SERVER = """\
#!/bin/bash
set -e
PORT="${PORT:-3001}"
SERVER_URL="http://localhost:${PORT}/mcp"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$SCRIPT_DIR/.."
node --import tsx ./src/server.ts &
SERVER_PID=$!
npx --yes "$PKG" server --url "$SERVER_URL" "$@"
"""


def test_a_wrapper_script_is_read_for_its_server_and_url() -> None:
    # The script runs in its parent folder (`cd "$SCRIPT_DIR/.."`), so ./src is conf/src; the
    # URL follows PORT, which tiercheck exports.
    step = "conf/scripts/run-server.sh --spec-version 2026-07-28"
    text = f"jobs:\n  j:\n    steps:\n      - run: {step}\n"
    facts = read_workflows({"w.yml": text}, scripts={"conf/scripts/run-server.sh": RUN_SERVER})
    (run,) = facts.runs
    assert run.server_start == ("node", "--import", "tsx", "conf/src/server.ts")
    assert run.url == "http://localhost:{port}/mcp"


def test_a_single_scenario_run_is_not_the_suite() -> None:
    text = (
        "jobs:\n  j:\n    steps:\n      - run: npx @modelcontextprotocol/conformance server "
        "--url http://x:1/mcp --scenario tasks-lifecycle --expected-failures ext.yaml\n"
    )
    assert read_workflows({"w.yml": text}).runs == ()


def _server_entry(start: str, sources: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    from tiercheck.sdk.infer.entry import GitFacts, RepoFacts, infer_entry
    from tiercheck.sdk.infer.manifest import ManifestFacts

    text = (
        "jobs:\n  j:\n    steps:\n      - run: |\n"
        f"          {start} &\n"
        "          npx @modelcontextprotocol/conformance server --url http://127.0.0.1:8001/mcp "
        "--spec-version 2025-11-25\n"
    )
    facts = RepoFacts("x", ManifestFacts(), read_workflows({"w.yml": text}), GitFacts(), sources)
    entry = infer_entry(facts)
    return dict(entry.body["server"]), dict(entry.reasons)


@pytest.mark.parametrize(
    ("start", "sources", "command"),
    [
        # The port in the start command, as an assignment or a flag's value.
        ("PORT=8001 ./srv", {}, "PORT={port} ./srv"),
        ("./srv --listen 127.0.0.1:8001", {}, "./srv --listen 127.0.0.1:{port}"),
        # A port flag the sources declare (Go's flag package), added to the command.
        ("./srv", {"srv/main.go": 'port := flag.Int("port", 8001, "")'}, "./srv -port {port}"),
        # The sources read PORT, which tiercheck exports: the command stays as it is.
        ("./srv", {"srv/main.rs": 'std::env::var("PORT")'}, "./srv"),
    ],
)
def test_the_port_becomes_a_placeholder(start: str, sources: dict[str, str], command: str) -> None:
    server, reasons = _server_entry(start, sources)
    assert server == {"command": command, "url": "http://127.0.0.1:{port}/mcp"}
    assert "server.url" not in reasons


def test_a_fixed_port_is_kept_and_said() -> None:
    server, reasons = _server_entry("./srv", {"srv/main.rs": "fn main() {}"})
    assert server == {"command": "./srv", "url": "http://127.0.0.1:8001/mcp"}
    assert reasons["server.url"].startswith("the server listens on the fixed port 8001")


def test_a_python_venv_and_pip_install_are_build_steps() -> None:
    text = (
        "jobs:\n  j:\n    steps:\n"
        "      - run: python3 -m venv .venv && .venv/bin/pip install -r requirements.txt\n"
        "      - run: npx @modelcontextprotocol/conformance client --command ./c\n"
    )
    facts = read_workflows({"w.yml": text})
    assert facts.builds == ("python3 -m venv .venv", ".venv/bin/pip install -r requirements.txt")


def test_a_matrix_job_is_read_once_per_combination_in_its_working_directory() -> None:
    text = """\
jobs:
  client:
    strategy:
      matrix:
        spec: ["2025-11-25", "2026-07-28"]
    defaults:
      run:
        working-directory: sdk
    steps:
      - run: >-
          npx @modelcontextprotocol/conformance client --command "./bin/client"
          --spec-version ${{ matrix.spec }} --expected-failures ./base-${{ matrix.spec }}.yml
"""
    runs = read_workflows({"w.yml": text}).runs
    assert [(r.revision, r.baseline, r.command) for r in runs] == [
        ("2025-11-25", "sdk/base-2025-11-25.yml", "sdk/bin/client"),
        ("2026-07-28", "sdk/base-2026-07-28.yml", "sdk/bin/client"),
    ]


def test_a_later_uv_sync_keeps_what_an_earlier_job_installed() -> None:
    text = (
        "jobs:\n"
        "  server:\n    steps:\n      - run: uv sync --package srv\n"
        "      - run: ./run-server.sh --spec-version 2025-11-25\n"
        "  client:\n    steps:\n      - run: uv sync --package lib\n"
        "      - run: npx @modelcontextprotocol/conformance client --command ./c\n"
    )
    assert read_workflows({"w.yml": text}).builds == (
        "uv sync --package srv",
        "uv sync --package lib --inexact",
    )


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ("./ci/run.sh --x", ("./ci/run.sh", ("--x",))),
        ("bash ci/run.sh a", ("ci/run.sh", ("a",))),
        ("python3 -u ci/conform.py --baseline b.yml", ("ci/conform.py", ("--baseline", "b.yml"))),
        ("uv run python ci/conform.py", ("ci/conform.py", ())),
        ("python -m ci.conform server", ("ci/conform.py", ("server",))),
        ("npx tsx scripts/c.ts --spec 1", ("scripts/c.ts", ("--spec", "1"))),
        ("node --import tsx scripts/c.ts", ("scripts/c.ts", ())),
        ("python -c 'print(1)'", None),
        ("cargo build", None),
        (".venv/bin/python", None),
    ],
)
def test_the_script_a_command_runs(argv: str, expected: object) -> None:
    from tiercheck.sdk.infer.wrapper import script_of

    assert script_of(tuple(argv.split())) == expected


PY_SHELL_SCRIPT = """\
import os, subprocess, sys
BASE = os.environ.get("BASELINE") or "conformance/base.yml"
subprocess.Popen("PORT=4000 node ./srv/index.js &", shell=True, cwd="sdk")
subprocess.check_call(
    "npx @modelcontextprotocol/conformance server --url http://localhost:4000/mcp "
    f"--expected-failures {BASE} " + " ".join(sys.argv[1:]),
    shell=True,
)
"""


def test_a_python_script_with_shell_strings_env_and_its_arguments() -> None:
    # The step's env gives BASELINE; the step's own arguments are passed on (sys.argv[1:]); the
    # server is started in sdk/ (cwd=), so ./srv is sdk/srv.
    text = (
        "jobs:\n  j:\n    env:\n      BASELINE: ci/base.yml\n    steps:\n"
        "      - run: python ci/conform.py --spec-version 2026-07-28\n"
    )
    facts = read_workflows({"w.yml": text}, scripts={"ci/conform.py": PY_SHELL_SCRIPT})
    (run,) = facts.runs
    assert (run.leg, run.revision, run.baseline, run.url, run.wrapper) == (
        "server",
        "2026-07-28",
        "ci/base.yml",
        "http://localhost:4000/mcp",
        "ci/conform.py",
    )
    assert run.server_start == ("PORT=4000", "node", "sdk/srv/index.js")


def test_a_script_not_given_is_wanted_and_nothing_else() -> None:
    text = "jobs:\n  j:\n    steps:\n      - run: python ci/conform.py && node ../out.js\n"
    facts = read_workflows({"w.yml": text})
    assert facts.runs == ()
    assert facts.scripts == ("ci/conform.py",)


RUN_SERVER_PKG = """\
#!/bin/bash
PORT="${PORT:-3001}"
SERVER_URL="http://localhost:${PORT}/mcp"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$SCRIPT_DIR/../../.."
uv run --frozen srv --port "$PORT" &
npx --yes "${CONFORMANCE_PKG:?set CONFORMANCE_PKG}" server --url "$SERVER_URL" "$@"
"""


@pytest.mark.parametrize(
    "env", ["", "env:\n  CONFORMANCE_PKG: '@modelcontextprotocol/conformance@1'\n"]
)
def test_a_shell_script_whose_harness_package_is_the_workflows_env(env: str) -> None:
    # As python-sdk writes it: the package is pinned in the workflow's env (or, not set, still a
    # package runner given the harness's leg and --url); the step's flags reach the harness.
    text = env + (
        "jobs:\n  j:\n    steps:\n      - run: >-\n          ./.github/actions/c/run-server.sh\n"
        "          --spec-version 2025-11-25 --expected-failures ./.github/actions/c/ef.yml\n"
    )
    scripts = {".github/actions/c/run-server.sh": RUN_SERVER_PKG}
    (run,) = read_workflows({"w.yml": text}, scripts=scripts).runs
    assert (run.revision, run.baseline, run.url) == (
        "2025-11-25",
        ".github/actions/c/ef.yml",
        "http://localhost:{port}/mcp",
    )
    assert run.server_start == ("uv", "run", "--frozen", "srv", "--port", "{port}")


JS_TEMPLATE_SCRIPT = """\
const { execSync, spawn } = require("child_process");
const path = require("path");
const PORT = 5000;
const server = spawn("node", [path.join(__dirname, "..", "server", "main.js")], {
  env: { ...process.env, PORT: String(PORT) },
});
const harness = "npx @modelcontextprotocol/conformance";
execSync(`${harness} server --url http://127.0.0.1:${PORT}/mcp --suite all`);
"""


def test_a_javascript_script_with_a_template_and_its_own_folder() -> None:
    text = "jobs:\n  j:\n    steps:\n      - run: node scripts/conformance.js\n"
    scripts = {"scripts/conformance.js": JS_TEMPLATE_SCRIPT}
    (run,) = read_workflows({"w.yml": text}, scripts=scripts).runs
    assert run.url == "http://127.0.0.1:5000/mcp"
    assert run.server_start == ("PORT=5000", "node", "./server/main.js")


def test_a_matrix_of_include_entries_less_its_excludes() -> None:
    text = """\
jobs:
  c:
    strategy:
      matrix:
        spec: ["2025-11-25", "2026-07-28"]
        os: [linux, mac]
        exclude:
          - os: mac
        include:
          - spec: "2026-07-28"
            baseline: next.yml
          - spec: draft
            os: linux
    steps:
      - run: >-
          npx @modelcontextprotocol/conformance client --command ./c
          --spec-version ${{ matrix.spec }} --expected-failures "${{ matrix.baseline }}"
"""
    runs = read_workflows({"w.yml": text}).runs
    assert [(r.revision, r.baseline) for r in runs] == [
        ("2025-11-25", "${{ matrix.baseline }}"),
        ("2026-07-28", "next.yml"),
        ("draft", "${{ matrix.baseline }}"),
    ]


OFFICIAL_ACTION = """\
jobs:
  server:
    steps:
      - run: cargo build -p conformance-server --release
      - run: |
          cargo run -p conformance-server --release &
          timeout 30 bash -c 'until curl -sf http://localhost:3000/health; do sleep 0.5; done'
      - uses: modelcontextprotocol/conformance@v0.1.16
        with:
          mode: server
          url: http://localhost:3000/mcp
          expected-failures: conformance/baseline.yml
  client:
    steps:
      - run: cargo build -p conformance-client --release
      - uses: modelcontextprotocol/conformance@v0.1.16
        with:
          mode: client
          command: ./target/release/conformance-client --flag 'two words'
          suite: core
  other:
    steps:
      - uses: someone/conformance@v1
        with: {mode: server, url: http://localhost:1/mcp}
"""


def test_the_official_action_is_the_run_its_inputs_make() -> None:
    # rust-mcp-stack/rust-mcp-sdk runs the harness only through the action, with `with:` inputs.
    facts = read_workflows({"conformance.yml": OFFICIAL_ACTION})
    server, client = facts.runs
    assert (server.leg, server.url, server.baseline, server.revision) == (
        "server",
        "http://localhost:3000/mcp",
        "conformance/baseline.yml",
        None,
    )
    assert server.server_start == ("cargo", "run", "-p", "conformance-server", "--release")
    assert (client.leg, client.command) == (
        "client",
        "./target/release/conformance-client --flag 'two words'",
    )
    assert facts.builds == (
        "cargo build -p conformance-server --release",
        "cargo build -p conformance-client --release",
    )


def test_a_server_started_in_a_folder_runs_there() -> None:
    # quarkiverse/quarkus-mcp-server: `working-directory: ./conformance`, then
    # `nohup java -jar target/quarkus-app/quarkus-run.jar &`: the jar is conformance's.
    from tiercheck.sdk.infer.entry import GitFacts, RepoFacts, infer_entry
    from tiercheck.sdk.infer.manifest import ManifestFacts

    text = """\
jobs:
  j:
    steps:
      - run: mvn -B clean install -DskipTests
      - working-directory: ./conformance
        run: mvn -B clean install
      - working-directory: ./conformance
        run: nohup java -Dquarkus.http.host=localhost -jar target/quarkus-app/quarkus-run.jar &
      - working-directory: ./conformance
        run: npx @modelcontextprotocol/conformance server --url http://localhost:8080/mcp
"""
    workflows = read_workflows({"w.yml": text})
    (run,) = workflows.runs
    assert run.server_start == (
        "nohup",
        "java",
        "-Dquarkus.http.host=localhost",
        "-jar",
        "target/quarkus-app/quarkus-run.jar",
    )
    sources = {"conformance/src/main/Server.java": 'int port = Integer.getInteger("PORT");'}
    facts = RepoFacts("x", ManifestFacts(), workflows, GitFacts(), sources)
    body = infer_entry(facts).body
    assert body["server"]["command"] == (
        "cd conformance && nohup java -Dquarkus.http.host=localhost "
        "-jar target/quarkus-app/quarkus-run.jar"
    )
    assert (
        body["build"]
        == "mvn -B clean install -DskipTests && cd conformance && mvn -B clean install"
    )


@pytest.mark.parametrize(
    ("builds", "line"),
    [
        # mcp-use: one step in libraries/typescript runs two commands; one `cd` for both.
        (
            ["cd libraries/typescript && pnpm install", "cd libraries/typescript && pnpm build"],
            "cd libraries/typescript && pnpm install && pnpm build",
        ),
        # A folder's commands followed by the root's or another folder's: in a subshell.
        (
            ["cd a && make", "make", "cd b && make x", "cd b && make y"],
            "(cd a && make) && make && cd b && make x && make y",
        ),
        (["cd 'a b' && make", "cd c && make"], "(cd 'a b' && make) && cd c && make"),
        (["uv sync", "cargo build"], "uv sync && cargo build"),
    ],
)
def test_the_builds_are_one_line_each_from_where_it_was_written(
    builds: list[str], line: str
) -> None:
    from tiercheck.sdk.infer.entry import build_line

    assert build_line(builds) == line


def test_the_folders_name_picks_the_tag_prefix_when_nothing_else_names_the_package() -> None:
    # rust-mcp-sdk cloned from a mirror: a workspace Cargo.toml names no package, the origin is
    # no GitHub URL, and its tags carry seven crates' prefixes.
    from tiercheck.sdk.infer.entry import GitFacts, RepoFacts, infer_entry
    from tiercheck.sdk.infer.manifest import ManifestFacts

    tags = ("rust-mcp-sdk-v0.9.0", "rust-mcp-transport-v0.6.0", "rust-mcp-macros-v0.6.0", "v0.1.0")
    git = GitFacts(is_repo=True, branch="main", tags=tags)
    facts = RepoFacts("rust-mcp-sdk", ManifestFacts(language="Rust"), read_workflows({}), git)
    entry = infer_entry(facts)
    assert entry.name == "rust-mcp-sdk"
    assert entry.body["tag_prefix"] == "rust-mcp-sdk-v"


def test_a_number_before_a_spaced_redirection_is_a_word_not_a_descriptor() -> None:
    # Agent-Hellboy/py-mcp: `--port 3001 > log 2>&1 &` lost its 3001 (the server command ended
    # in a bare `--port`), read as the descriptor of `3001>`.
    text = (
        "uvicorn tests.conformance_server:app --host 127.0.0.1 --port 3001 > /tmp/l.log 2>&1 &\n"
        "x 2>/dev/null; y 'a 2>b' 1>&2; z 10 >o\n"
    )
    assert split_commands(text) == [
        ShellCommand(
            ("uvicorn", "tests.conformance_server:app", "--host", "127.0.0.1", "--port", "3001"),
            background=True,
        ),
        ShellCommand(("x",)),
        ShellCommand(("y", "a 2>b")),
        ShellCommand(("z", "10")),
    ]
