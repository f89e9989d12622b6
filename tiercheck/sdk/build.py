"""Building an SDK checkout, cached by commit.

The build command is the SDK's own shell command (`uv sync …`, `pnpm install && pnpm build`). It
runs in the checkout, in its own process group, with a secret-free environment, and writes to a
log file rather than to our stdout (so `--output json` stays clean).

A successful build leaves a marker keyed by sha256(commit, command, configured environment) in
the checkout's `.git` directory, so a second run on the same commit skips a build that can take
minutes. The marker lives beside the build outputs it vouches for: `checkout()` deletes every
marker whenever it resets and cleans the tree (which deletes `.venv`, `node_modules`, …), so a
marker never outlives what it describes (`tiercheck.sdk.markers` says where markers live, for
both). A failed build is an outcome, never an exception: the
assessment records the revision as unmeasured and carries on.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tiercheck import durable, process
from tiercheck.errors import ProcessError
from tiercheck.sdk.markers import markers_dir

__all__ = [
    "BuildOutcome",
    "BuildState",
    "build",
    "build_key",
    "failure_reason",
]

BuildState = Literal["built", "cached", "skipped", "failed", "none"]

_TAIL_LINES = 15
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
#: Error lines kept ahead of the tail.
_ERROR_LINES = 8
#: Lines that say what went wrong, in any of the SDKs' build tools.
_ERRORISH = re.compile(
    r"(?i)(^|\s|\[)(error|fatal|err!)(\[\w+\])?[:\]]|^ERROR\b|\bnot found\b|"
    r"No such file|command not found|\bcannot find\b|\bfailed to\b|BUILD FAILURE"
)
#: Stack frames and backtrace chatter (RUST_BACKTRACE, Java, Go panics) that would otherwise
#: push the cause out of the reason.
_NOISE = re.compile(
    r"^\s*(\d+: \S|at \S+:\d+|at [\w.$<>]+\(|\.\.\. \d+ more$)|"
    r"^\s*(Stack backtrace:|stack backtrace:|note: Some details are omitted|"
    r"note: run with `RUST_BACKTRACE)|^goroutine \d+ \[|^\s+/\S+\.go:\d+"
)


@dataclass(frozen=True)
class BuildOutcome:
    """How the build step ended.

    state: "built" (ran and succeeded), "cached" (a marker proves this exact build already
    succeeded here), "skipped" (the user trusts the checkout), "failed" (ran and failed, or could
    not start: `reason` holds the log tail), "none" (no build command is configured).
    """

    state: BuildState
    log_path: Path | None
    reason: str = ""
    duration_s: float = 0.0
    key: str | None = None

    @property
    def ok(self) -> bool:
        """True unless the build failed: the server and client legs may run."""
        return self.state != "failed"


def build_key(
    commit_sha: str, command: str, env: Mapping[str, str], tools: Sequence[str] = ()
) -> str:
    """sha256 over the commit, the build command and the configured environment, sorted, and
    the provisioned tools' directories (each names its version) when there are any."""
    content: dict[str, object] = {"commit": commit_sha, "command": command}
    content["env"] = sorted(env.items())
    if tools:
        content["tools"] = list(tools)
    payload = json.dumps(content, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def _write_marker(marker: Path, commit_sha: str, command: str, duration_s: float) -> None:
    record = {"commit": commit_sha, "command": command, "duration_s": round(duration_s, 3)}
    # Durable: an interrupted write never looks like a finished build.
    durable.write_text(marker, json.dumps(record) + "\n")


def failure_reason(summary: str, log_text: str) -> str:
    """`summary`, then the first lines that read like errors, then the tail of the log.

    Backtrace frames are dropped from both, and a line is never shown twice, so the line that
    says what went wrong survives however long the stack trace after it.
    """
    plain = _ANSI.sub("", log_text)  # Maven and others colour their output even in logs
    lines = [
        line.rstrip()
        for line in plain.splitlines()
        if line.strip() and not line.startswith("+ ") and not _NOISE.search(line)
    ]
    errors = list(dict.fromkeys(line for line in lines if _ERRORISH.search(line)))
    errors = errors[:_ERROR_LINES]
    tail = [line for line in dict.fromkeys(lines[-_TAIL_LINES:]) if line not in errors]
    kept = [*errors, *(["…"] if errors and tail else []), *tail]
    return "\n".join([summary, *kept]) if kept else summary


def _failure_reason(summary: str, log_path: Path) -> str:
    try:
        text = log_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return summary
    return failure_reason(summary, text[-200_000:])


def build(
    checkout_path: Path,
    command: str | None,
    env: Mapping[str, str],
    *,
    log_path: Path,
    cache_dir: Path,
    commit_sha: str | None,
    force: bool = False,
    skip: bool = False,
    allow_env: Collection[str] = (),
    timeout_s: float | None = None,
    path_prefix: Sequence[Path] = (),
) -> BuildOutcome:
    """Run the SDK's build command in `checkout_path`, unless a marker proves it already ran.

    `env` is the SDK's configured environment (known_sdks.yaml `env`): it is added to our own
    environment minus every secret-named variable (`process.sdk_environment`; `allow_env` lets
    named ones through) and, being configuration, it is part of the cache key. `commit_sha` None
    (a directory that is not a git checkout) disables the cache. `force` rebuilds even when
    cached; `skip` trusts the checkout as it is. `path_prefix` (provisioned tools) goes first on
    the build's PATH and into the cache key. Never raises for a failing build: the outcome is
    "failed" with the log's error lines and its tail as `reason`.
    """
    if skip:
        return BuildOutcome("skipped", None, reason="build skipped on request")
    if not command or not command.strip():
        return BuildOutcome("none", None, reason="no build command configured")

    tools = [str(p) for p in path_prefix]
    key = build_key(commit_sha, command, env, tools) if commit_sha else None
    marker = markers_dir(checkout_path, cache_dir) / f"{key}.json" if key else None
    if (
        marker is not None
        and not force
        and marker.is_file()
        and _head_is(checkout_path, commit_sha)
    ):
        return BuildOutcome("cached", log_path, reason=f"already built at {marker}", key=key)

    if marker is not None:
        marker.unlink(missing_ok=True)  # a rebuild that fails must not leave the old proof
    outcome = _run_build(
        checkout_path,
        command,
        process.sdk_environment(env, allow=allow_env),
        tools,
        log_path=log_path,
        timeout_s=timeout_s,
        key=key,
    )
    if outcome.state == "built" and marker is not None and commit_sha is not None:
        _write_marker(marker, commit_sha, command, outcome.duration_s)
    return outcome


def _run_build(
    checkout_path: Path,
    command: str,
    run_env: dict[str, str],
    tools: Sequence[str],
    *,
    log_path: Path,
    timeout_s: float | None,
    key: str | None,
) -> BuildOutcome:
    """Run the build command once, its output appended to `log_path`: "built", or "failed"
    with the reason the log gives."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("a", encoding="utf-8") as log:
        log.write(f"+ {command}\n")  # the log shows what ran, like `set -x`
    began = time.monotonic()
    if tools:
        run_env["PATH"] = os.pathsep.join([*tools, run_env.get("PATH", "")])
    try:
        completed = process.run(
            command,
            cwd=checkout_path,
            env=run_env,
            log_path=log_path,
            timeout_s=timeout_s,
        )
    except ProcessError as exc:
        return BuildOutcome(
            "failed", log_path, reason=exc.message, duration_s=time.monotonic() - began, key=key
        )
    duration = completed.duration_s
    if not completed.ok:
        summary = (
            f"build timed out after {timeout_s:g} s and was stopped: {command}"
            if completed.timed_out
            else f"build exited with code {completed.returncode}: {command}"
        )
        reason = _failure_reason(summary, log_path)
        return BuildOutcome("failed", log_path, reason=reason, duration_s=duration, key=key)
    return BuildOutcome("built", log_path, duration_s=duration, key=key)


def _head_is(checkout_path: Path, commit_sha: str | None) -> bool:
    """Whether the checkout's HEAD is still `commit_sha` (someone may have moved it by hand)."""
    if commit_sha is None:
        return False
    from tiercheck.sdk.checkout import head_sha

    head = head_sha(checkout_path)
    # A directory we cannot read HEAD from (no .git) relies on the caller's commit alone.
    return head is None or head == commit_sha
