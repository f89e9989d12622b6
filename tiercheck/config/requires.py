"""What an SDK line needs on the machine: `requires: [go>=1.23, cargo, java>=17, mvn]`.

Pure data and parsing. Each tool tiercheck knows is described once here: how to ask it for its
version, how to read the answer, the usual way to install it, and, for the two that come from a
package registry (uv from PyPI, pnpm from npm), the version tiercheck provisions into its cache
when none is on PATH. Probing and installing happen in `tiercheck.sdk.toolchain` and
`tiercheck.sdk.tools`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from tiercheck.errors import ConfigError

__all__ = [
    "TOOLS",
    "Requirement",
    "ToolSpec",
    "parse_requirement",
    "parse_requirements",
    "version_at_least",
    "version_tuple",
]

#: Where a provisionable tool comes from.
Registry = Literal["pypi", "npm"]


@dataclass(frozen=True)
class ToolSpec:
    """One tool tiercheck can look for."""

    name: str
    #: argv that prints the version (the first element is the executable looked up on PATH).
    version_argv: tuple[str, ...]
    #: The first group is the version, searched in stdout then stderr.
    version_pattern: str
    #: The usual way to install it, for the one-line reason.
    install_hint: str
    #: Provisioned from this registry when missing from PATH; None: the user must install it.
    registry: Registry | None = None
    #: The package name in that registry.
    package: str | None = None
    #: The version provisioned when the SDK pins none.
    pinned: str | None = None

    @property
    def provisionable(self) -> bool:
        """Whether tiercheck installs it into its cache when PATH lacks it."""
        return self.registry is not None


_SEMVER = r"(\d+(?:\.\d+)+)"

TOOLS: Mapping[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec(
            "uv",
            ("uv", "--version"),
            rf"uv {_SEMVER}",
            "pip install uv (tiercheck provisions it from PyPI)",
            registry="pypi",
            package="uv",
            pinned="0.13.8",
        ),
        ToolSpec(
            "pnpm",
            ("pnpm", "--version"),
            _SEMVER,
            "npm install -g pnpm (tiercheck provisions it from npm)",
            registry="npm",
            package="pnpm",
            pinned="10.26.1",
        ),
        ToolSpec("node", ("node", "--version"), rf"v{_SEMVER}", "install Node.js (nodejs.org)"),
        ToolSpec("npm", ("npm", "--version"), _SEMVER, "install Node.js, which brings npm"),
        ToolSpec("python3", ("python3", "--version"), rf"Python {_SEMVER}", "install Python 3"),
        ToolSpec("go", ("go", "version"), rf"go{_SEMVER}", "install Go from go.dev/dl"),
        ToolSpec(
            "cargo",
            ("cargo", "--version"),
            rf"cargo {_SEMVER}",
            "install Rust with rustup (rustup.rs)",
        ),
        ToolSpec(
            "rustc",
            ("rustc", "--version"),
            rf"rustc {_SEMVER}",
            "install Rust with rustup (rustup.rs)",
        ),
        ToolSpec(
            "java",
            ("java", "-version"),
            r'version "(\d+(?:\.\d+)*)',
            "install a JDK (apt-get install openjdk-17-jdk-headless, or Temurin)",
        ),
        ToolSpec(
            "mvn",
            ("mvn", "--version"),
            rf"Apache Maven {_SEMVER}",
            "install Maven (apt-get install maven)",
        ),
        ToolSpec(
            "dotnet",
            ("dotnet", "--version"),
            rf"^{_SEMVER}",
            "install the .NET SDK (dot.net/download)",
        ),
        ToolSpec(
            "ruby",
            ("ruby", "--version"),
            rf"ruby {_SEMVER}",
            "install Ruby (apt-get install ruby-full, or rbenv)",
        ),
        ToolSpec(
            "bundle",
            ("bundle", "--version"),
            _SEMVER,
            "install Bundler (gem install bundler)",
        ),
    )
}

_REQUIREMENT = re.compile(r"^\s*([a-z][a-z0-9_-]*)\s*(?:>=\s*(\d+(?:\.\d+)*))?\s*$")


@dataclass(frozen=True)
class Requirement:
    """One entry of `requires`: a tool, and the oldest version that will do (None: any)."""

    tool: str
    minimum: str | None = None

    @property
    def spec(self) -> ToolSpec:
        """What tiercheck knows about the tool."""
        return TOOLS[self.tool]

    def __str__(self) -> str:
        return f"{self.tool}>={self.minimum}" if self.minimum else self.tool


def parse_requirement(text: str, where: str) -> Requirement:
    """`go>=1.23` → Requirement("go", "1.23"); a ConfigError naming `where` otherwise."""
    match = _REQUIREMENT.match(text)
    if match is None:
        msg = f"{where}: {text!r} is not TOOL or TOOL>=VERSION (e.g. go>=1.23)"
        raise ConfigError(msg)
    tool, minimum = match.group(1), match.group(2)
    if tool not in TOOLS:
        msg = f"{where}: unknown tool {tool!r} (known: {', '.join(sorted(TOOLS))})"
        raise ConfigError(msg)
    return Requirement(tool, minimum)


def parse_requirements(items: object, where: str) -> tuple[Requirement, ...]:
    """Every entry of a `requires` list, in order; a tool named twice is a ConfigError."""
    if items is None:
        return ()
    if not isinstance(items, list | tuple):
        msg = f"{where}: expected a list like [go>=1.23, cargo]"
        raise ConfigError(msg)
    parsed: list[Requirement] = []
    for index, item in enumerate(items):
        requirement = parse_requirement(str(item), f"{where}[{index}]")
        if any(r.tool == requirement.tool for r in parsed):
            msg = f"{where}[{index}]: {requirement.tool} is listed twice"
            raise ConfigError(msg)
        parsed.append(requirement)
    return tuple(parsed)


def version_tuple(text: str) -> tuple[int, ...]:
    """`1.23.4` → (1, 23, 4); the leading numeric part only (`17.0.15+6` → (17, 0, 15))."""
    match = re.match(r"\d+(?:\.\d+)*", text.strip().removeprefix("v"))
    return tuple(int(part) for part in match.group(0).split(".")) if match else ()


def version_at_least(found: str, minimum: str) -> bool:
    """Whether `found` is `minimum` or newer, comparing numerically (1.10 > 1.9)."""
    have, want = version_tuple(found), version_tuple(minimum)
    width = max(len(have), len(want))
    return have + (0,) * (width - len(have)) >= want + (0,) * (width - len(want))
