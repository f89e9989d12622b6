"""Is this machine able to build and run an SDK line? Tools on PATH, their versions, and pins.

`check_tools` looks up each tool a line requires on the PATH the SDK will get and asks it for
its version (bounded by a timeout, in a scratch directory, so a toolchain pin of the SDK cannot
answer for the machine). A tool that is missing or too old is a one-line reason naming the tool,
the version found, the version needed and the usual way to install it; uv and pnpm are instead
marked for provisioning (`sdk.tools`). `toolchain_pin_problem` reads a pin inside the checkout
(`rust-toolchain.toml`) and says when the machine cannot meet it, with the override that works.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tiercheck import process
from tiercheck.config.requires import Requirement, ToolSpec, version_at_least
from tiercheck.errors import ProcessError

__all__ = [
    "PROBE_TIMEOUT_S",
    "ToolState",
    "ToolStatus",
    "check_tools",
    "probe_tool",
    "toolchain_pin_problem",
]

#: A version query that takes longer than this is treated as "the tool does not answer".
PROBE_TIMEOUT_S = 10.0

#: found: on PATH and new enough. provision: not usable from PATH, tiercheck installs it.
ToolState = Literal["found", "missing", "too-old", "broken", "provision"]


@dataclass(frozen=True)
class ToolStatus:
    """One required tool as this machine has it."""

    tool: str
    needed: str | None
    state: ToolState
    found: str | None = None
    path: str | None = None
    hint: str = ""

    @property
    def ok(self) -> bool:
        """Whether the line can go ahead as far as this tool is concerned."""
        return self.state in ("found", "provision")

    @property
    def reason(self) -> str:
        """One line: what is wrong and how to fix it ("" when nothing is)."""
        wanted = f"{self.tool} {self.needed} or newer" if self.needed else self.tool
        if self.state == "missing":
            return f"{wanted} is required but not on PATH; {self.hint}"
        if self.state == "too-old":
            return f"{wanted} is required, found {self.found} at {self.path}; {self.hint}"
        if self.state == "broken":
            return f"{wanted} is required, but {self.path} did not report a version; {self.hint}"
        return ""

    def to_dict(self) -> dict[str, str | bool | None]:
        """The doctor's and the scorecard's form."""
        return {
            "tool": self.tool,
            "needed": self.needed,
            "state": self.state,
            "found": self.found,
            "path": self.path,
            "ok": self.ok,
        }


def _search_path(env: Mapping[str, str]) -> str | None:
    return env.get("PATH")


def probe_tool(
    spec: ToolSpec, env: Mapping[str, str], *, timeout_s: float = PROBE_TIMEOUT_S
) -> tuple[str | None, str | None]:
    """(path, version) of `spec` on env's PATH: (None, None) when absent, (path, None) when it
    does not report a version it can be read from."""
    executable = shutil.which(spec.version_argv[0], path=_search_path(env))
    if executable is None:
        return None, None
    with tempfile.TemporaryDirectory(prefix="tiercheck-probe-") as scratch:
        try:
            result = process.capture(
                [executable, *spec.version_argv[1:]],
                cwd=Path(scratch),
                env=dict(env),
                timeout_s=timeout_s,
            )
        except ProcessError:
            return executable, None
    for text in (result.stdout, result.stderr):
        match = re.search(spec.version_pattern, text, re.MULTILINE)
        if match:
            return executable, match.group(1)
    return executable, None


def check_tools(
    requirements: Sequence[Requirement],
    env: Mapping[str, str],
    *,
    timeout_s: float = PROBE_TIMEOUT_S,
) -> list[ToolStatus]:
    """The state of each required tool, in the order required."""
    statuses = []
    for requirement in requirements:
        spec = requirement.spec
        path, version = probe_tool(spec, env, timeout_s=timeout_s)
        state: ToolState
        if path is None:
            state = "missing"
        elif version is None:
            state = "broken"
        elif requirement.minimum and not version_at_least(version, requirement.minimum):
            state = "too-old"
        else:
            state = "found"
        if state != "found" and spec.provisionable:
            state = "provision"
        statuses.append(
            ToolStatus(
                tool=requirement.tool,
                needed=requirement.minimum,
                state=state,
                found=version,
                path=path,
                hint=spec.install_hint,
            )
        )
    return statuses


def _rust_channel(checkout: Path) -> tuple[str, str] | None:
    """(file name, channel) of a rust-toolchain pin in the checkout, if there is one."""
    for name in ("rust-toolchain.toml", "rust-toolchain"):
        path = checkout / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            channel = tomllib.loads(text).get("toolchain", {}).get("channel")
        except tomllib.TOMLDecodeError:
            # The legacy `rust-toolchain` file may hold just the channel name.
            channel = text.strip() if name == "rust-toolchain" else None
        if isinstance(channel, str) and channel.strip():
            return name, channel.strip()
    return None


def _installed_toolchains(env: Mapping[str, str], timeout_s: float) -> list[str] | None:
    rustup = shutil.which("rustup", path=_search_path(env))
    if rustup is None:
        return None
    with tempfile.TemporaryDirectory(prefix="tiercheck-probe-") as scratch:
        try:
            result = process.capture(
                [rustup, "toolchain", "list"], cwd=Path(scratch), env=dict(env), timeout_s=timeout_s
            )
        except ProcessError:
            return None
    return [line.split()[0] for line in result.stdout.splitlines() if line.strip()]


def _channel_installed(channel: str, installed: Sequence[str]) -> bool:
    # `1.96` is met by `1.96-<host>` or `1.96.N-<host>`; `stable` by `stable-<host>`.
    pattern = re.compile(rf"^{re.escape(channel)}(\.\d+)*(-|$)")
    return any(pattern.match(name) for name in installed)


def toolchain_pin_problem(
    checkout: Path, env: Mapping[str, str], *, timeout_s: float = PROBE_TIMEOUT_S
) -> str | None:
    """Why the SDK's own toolchain pin cannot be met here (None: no pin, or it can be).

    A `RUSTUP_TOOLCHAIN` in the SDK's environment overrides the pin, so there is then nothing to
    check. Without rustup the pin means nothing to the installed cargo either.
    """
    pin = _rust_channel(checkout)
    if pin is None or env.get("RUSTUP_TOOLCHAIN"):
        return None
    installed = _installed_toolchains(env, timeout_s)
    if installed is None or _channel_installed(pin[1], installed):
        return None
    names = ", ".join(name.split("-x86_64")[0].split("-aarch64")[0] for name in installed)
    return (
        f"{pin[0]} pins Rust {pin[1]}, which is not installed (installed: {names or 'none'}); "
        f"set RUSTUP_TOOLCHAIN=stable (the entry's env, or the environment) to build with an "
        f"installed toolchain, or run `rustup toolchain install {pin[1]}`"
    )
