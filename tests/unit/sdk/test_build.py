"""tiercheck.sdk.build with real commands: cached by commit, failures as outcomes, no secrets."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from support.gitutil import GitOrigin
from tiercheck.sdk.build import BuildOutcome, build, build_key
from tiercheck.sdk.markers import has_build_marker

pytestmark = pytest.mark.usefixtures("isolated_git")

PY = shlex.quote(sys.executable)


@pytest.fixture
def sdk(tmp_path: Path) -> GitOrigin:
    repo = GitOrigin(tmp_path / "sdk")
    repo.commit({"README.md": "sdk\n"}, "first")
    return repo


def _counting_command(counter: Path) -> str:
    # Each run appends a line to a file outside the checkout: the test counts real builds.
    script = f"open({str(counter)!r}, 'a').write('run\\n'); print('building…')"
    return f"{PY} -c {shlex.quote(script)}"


def _build(
    path: Path, command: str | None, tmp_path: Path, commit_sha: str | None, **options: Any
) -> BuildOutcome:
    env = options.pop("env", {})
    assert isinstance(env, dict)
    return build(
        path,
        command,
        env,
        log_path=tmp_path / "b.log",
        cache_dir=tmp_path / "c",
        commit_sha=commit_sha,
        **options,
    )


def _runs(counter: Path) -> int:
    return len(counter.read_text().splitlines()) if counter.exists() else 0


def test_no_command_and_skip(sdk: GitOrigin, tmp_path: Path) -> None:
    assert _build(sdk.path, None, tmp_path, sdk.head).state == "none"
    assert _build(sdk.path, "  ", tmp_path, sdk.head).state == "none"
    skipped = _build(sdk.path, "exit 1", tmp_path, sdk.head, skip=True)
    assert skipped.state == "skipped"
    assert skipped.ok


def test_rerun_on_the_same_commit_is_cached(sdk: GitOrigin, tmp_path: Path) -> None:
    counter = tmp_path / "runs.txt"
    command = _counting_command(counter)
    log = tmp_path / "logs" / "build.log"
    first = build(
        sdk.path, command, {}, log_path=log, cache_dir=tmp_path / "c", commit_sha=sdk.head
    )
    assert first.state == "built"
    assert first.ok
    assert first.key == build_key(sdk.head, command, {})
    assert "building…" in log.read_text()
    assert has_build_marker(sdk.path)
    second = build(
        sdk.path, command, {}, log_path=log, cache_dir=tmp_path / "c", commit_sha=sdk.head
    )
    assert second.state == "cached"
    assert _runs(counter) == 1


def test_env_command_and_force_change_the_outcome(sdk: GitOrigin, tmp_path: Path) -> None:
    counter = tmp_path / "runs.txt"
    command = _counting_command(counter)
    assert _build(sdk.path, command, tmp_path, sdk.head, env={"MODE": "a"}).state == "built"
    assert _build(sdk.path, command, tmp_path, sdk.head, env={"MODE": "a"}).state == "cached"
    assert _build(sdk.path, command, tmp_path, sdk.head, env={"MODE": "b"}).state == "built"
    assert _build(sdk.path, command + " ", tmp_path, sdk.head, env={"MODE": "b"}).state == "built"
    forced = _build(sdk.path, command, tmp_path, sdk.head, env={"MODE": "a"}, force=True)
    assert forced.state == "built"
    assert _runs(counter) == 4


def test_a_new_commit_rebuilds(sdk: GitOrigin, tmp_path: Path) -> None:
    counter = tmp_path / "runs.txt"
    command = _counting_command(counter)
    assert _build(sdk.path, command, tmp_path, sdk.head).state == "built"
    newer = sdk.commit({"README.md": "v2\n"}, "second")
    assert _build(sdk.path, command, tmp_path, newer).state == "built"
    assert _runs(counter) == 2


def test_a_marker_for_another_head_is_not_trusted(sdk: GitOrigin, tmp_path: Path) -> None:
    counter = tmp_path / "runs.txt"
    command = _counting_command(counter)
    first = sdk.head
    assert _build(sdk.path, command, tmp_path, first).state == "built"
    sdk.commit({"README.md": "moved by hand\n"}, "second")  # HEAD is no longer `first`
    assert _build(sdk.path, command, tmp_path, first).state == "built"


def test_failure_is_an_outcome_with_the_log_tail(sdk: GitOrigin, tmp_path: Path) -> None:
    command = (
        "echo resolving dependencies; echo 'error: no matching version for left-pad' >&2; exit 7"
    )
    outcome = build(
        sdk.path,
        command,
        {},
        log_path=tmp_path / "build.log",
        cache_dir=tmp_path / "c",
        commit_sha=sdk.head,
    )
    assert outcome.state == "failed"
    assert not outcome.ok
    assert "exited with code 7" in outcome.reason
    assert "no matching version for left-pad" in outcome.reason
    assert not has_build_marker(sdk.path)


def test_a_failed_forced_rebuild_drops_the_old_marker(sdk: GitOrigin, tmp_path: Path) -> None:
    marker_dir = tmp_path / "switch"
    # Succeeds while the switch file is absent, fails once it exists.
    command = f"test ! -e {shlex.quote(str(marker_dir))}"
    assert _build(sdk.path, command, tmp_path, sdk.head).state == "built"
    marker_dir.write_text("now fail\n")
    assert _build(sdk.path, command, tmp_path, sdk.head, force=True).state == "failed"
    assert _build(sdk.path, command, tmp_path, sdk.head).state == "failed"


def test_timeout_is_a_failure(sdk: GitOrigin, tmp_path: Path) -> None:
    outcome = build(
        sdk.path,
        # exec: the stopped group is one process, reaped at once (an orphaned grandchild would
        # wait for whoever adopts it to reap it, which on some machines takes a second or two).
        f'exec {PY} -c "import time; time.sleep(120)"',
        {},
        log_path=tmp_path / "b.log",
        cache_dir=tmp_path / "c",
        commit_sha=sdk.head,
        timeout_s=0.3,
    )
    assert outcome.state == "failed"
    assert "timed out after 0.3 s" in outcome.reason


def test_a_command_that_cannot_start_is_a_failure(tmp_path: Path) -> None:
    outcome = build(
        tmp_path / "missing",
        "true",
        {},
        log_path=tmp_path / "b.log",
        cache_dir=tmp_path / "c",
        commit_sha=None,
    )
    assert outcome.state == "failed"
    assert "cannot start" in outcome.reason


def test_without_a_commit_nothing_is_cached(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    counter = tmp_path / "runs.txt"
    command = _counting_command(counter)
    assert _build(plain, command, tmp_path, None).state == "built"
    assert _build(plain, command, tmp_path, None).state == "built"
    assert _runs(counter) == 2


def test_the_build_never_sees_the_github_token(
    sdk: GitOrigin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_secret_value")
    monkeypatch.setenv("NPM_TOKEN", "npm_secret_value")
    dump = tmp_path / "env.json"
    script = f"import json, os; json.dump(dict(os.environ), open({str(dump)!r}, 'w'))"
    outcome = build(
        sdk.path,
        f"{PY} -c {shlex.quote(script)}",
        {"UV_NO_DEV": "1"},
        log_path=tmp_path / "b.log",
        cache_dir=tmp_path / "c",
        commit_sha=sdk.head,
        allow_env=["NPM_TOKEN"],
    )
    assert outcome.state == "built"
    seen = json.loads(dump.read_text())
    assert "GITHUB_TOKEN" not in seen
    assert "ghp_secret_value" not in dump.read_text()
    assert seen["NPM_TOKEN"] == "npm_secret_value"  # explicitly allowed by the SDK's config
    assert seen["UV_NO_DEV"] == "1"


# --- failure reasons keep the error line ------------------------------------------------------

# What rustup prints when a rust-toolchain.toml pin is not installed and RUST_BACKTRACE=1 is
# set, as seen on a machine with Rust 1.95 and a 1.96 pin (frame lines shortened, ours).
_RUSTUP_FAILURE = """\
error: toolchain '1.96-x86_64-unknown-linux-gnu' is not installed
help: run `rustup toolchain install` to install it

Stack backtrace:
""" + "".join(
    f"  {i:>2}: rustup::frame_{i}::{{{{closure}}}}\n             at ./src/frame_{i}.rs:{i}:16\n"
    for i in range(40)
)


def test_a_failed_build_under_rust_backtrace_keeps_the_rustup_error_line(
    tmp_path: Path, sdk: GitOrigin, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUST_BACKTRACE", "1")
    fake = tmp_path / "bin" / "cargo"
    fake.parent.mkdir()
    # Prints the backtrace only when RUST_BACKTRACE reaches it, as rustup does.
    head, frames = _RUSTUP_FAILURE.split("Stack", 1)
    (tmp_path / "head.txt").write_text(head)
    (tmp_path / "frames.txt").write_text("Stack" + frames)
    fake.write_text(
        "#!/bin/sh\n"
        f"cat {tmp_path / 'head.txt'} >&2\n"
        f'[ -n "$RUST_BACKTRACE" ] && cat {tmp_path / "frames.txt"} >&2\n'
        "exit 1\n"
    )
    fake.chmod(0o755)
    command = f"{shlex.quote(str(fake))} build -p mcp-conformance"
    outcome = _build(sdk.path, command, tmp_path, sdk.head)
    assert outcome.state == "failed"
    lines = outcome.reason.splitlines()
    assert lines[0] == f"build exited with code 1: {command}"
    assert lines[1] == "error: toolchain '1.96-x86_64-unknown-linux-gnu' is not installed"
    assert "help: run `rustup toolchain install` to install it" in lines
    assert not any("rustup::frame_" in line or "at ./src/" in line for line in lines)
    # The whole backtrace is still in the log for whoever wants it.
    assert outcome.log_path is not None
    assert "rustup::frame_39" in outcome.log_path.read_text()


@pytest.mark.parametrize(
    ("log", "first_kept"),
    [
        # The error comes early and a long tail of progress follows it.
        (
            "Resolving...\nERR_PNPM_FETCH_404 GET https://x: Not Found - 404\n"
            + "".join(f"progress {i}\n" for i in range(40)),
            "ERR_PNPM_FETCH_404 GET https://x: Not Found - 404",
        ),
        ("/bin/sh: 1: uv: not found\n", "/bin/sh: 1: uv: not found"),
        (
            "[INFO] Scanning\n[ERROR] Failed to execute goal on project mcp-core\n"
            "\tat org.apache.maven.Foo.bar(Foo.java:12)\n" * 3,
            "[ERROR] Failed to execute goal on project mcp-core",
        ),
        ("go: cannot find main module\n", "go: cannot find main module"),
    ],
)
def test_failure_reason_puts_the_error_lines_first(log: str, first_kept: str) -> None:
    from tiercheck.sdk.build import failure_reason

    reason = failure_reason("build exited with code 1: make", log).splitlines()
    assert reason[0] == "build exited with code 1: make"
    assert reason[1] == first_kept
    assert not any(line.lstrip().startswith("at org.apache") for line in reason)
    assert len(reason) == len(set(reason))  # nothing twice


def test_provisioned_tools_come_first_on_the_build_path_and_key_the_cache(
    tmp_path: Path, sdk: GitOrigin
) -> None:
    tools = tmp_path / "tools" / "uv" / "0.13.8" / "bin"
    tools.mkdir(parents=True)
    (tools / "uv").write_text('#!/bin/sh\necho provisioned-uv "$@"\n')
    (tools / "uv").chmod(0o755)
    outcome = _build(sdk.path, "uv sync --frozen", tmp_path, sdk.head, path_prefix=[tools])
    assert outcome.state == "built"
    assert "provisioned-uv sync --frozen" in (tmp_path / "b.log").read_text()
    again = _build(sdk.path, "uv sync --frozen", tmp_path, sdk.head, path_prefix=[tools])
    assert again.state == "cached"
    # Another tool version is another build.
    assert build_key(sdk.head, "uv sync --frozen", {}, [str(tools)]) != build_key(
        sdk.head, "uv sync --frozen", {}, [str(tools).replace("0.13.8", "0.14.0")]
    )
    # No tools: the key is what it always was (existing markers stay valid).
    assert build_key(sdk.head, "make", {}) == build_key(sdk.head, "make", {}, [])


def test_failure_reason_drops_colour_codes() -> None:
    from tiercheck.sdk.build import failure_reason

    log = "\x1b[0m\x1b[0m[\x1b[1;31mERROR\x1b[m] Failed to execute goal\n"
    assert failure_reason("s", log).splitlines() == ["s", "[ERROR] Failed to execute goal"]
