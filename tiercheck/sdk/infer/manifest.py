"""An SDK's name, language, GitHub repository and tools, from its root manifest's text."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tiercheck.languages import language_from_files

__all__ = ["ManifestFacts", "language_of", "read_manifests"]

_GITHUB = re.compile(
    r"github\.com[:/]+([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?(?:[#?].*)?$"
)
_GO_VERSION = re.compile(r"^go\s+(\d+)\.(\d+)", re.M)
_MIN_VERSION = re.compile(r">=\s*v?(\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class ManifestFacts:
    """What the root manifests say; None where they do not say it."""

    name: str | None = None
    language: str | None = None
    repo: str | None = None
    requires: tuple[str, ...] = ()


def language_of(names: set[str]) -> str | None:
    """The language the root's manifests say the SDK is written in (`languages.MANIFESTS`)."""
    return language_from_files(sorted(names))


def github_repo(url: object) -> str | None:
    """`owner/name` of a GitHub URL (https, ssh or `github.com/owner/name`), else None."""
    if not isinstance(url, str):
        return None
    match = _GITHUB.search(url.strip())
    return f"{match.group(1)}/{match.group(2)}" if match else None


def _toml(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _json(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _table(data: Mapping[str, Any], *keys: str) -> Mapping[str, Any]:
    for key in keys:
        block = data.get(key)
        if not isinstance(block, Mapping):
            return {}
        data = block
    return data


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _cargo(text: str | None) -> ManifestFacts:
    data = _toml(text)
    package, shared = _table(data, "package"), _table(data, "workspace", "package")
    repo = github_repo(package.get("repository")) or github_repo(shared.get("repository"))
    name = _text(package.get("name")) or (repo.split("/")[1] if repo else None)
    minimum = _text(package.get("rust-version")) or _text(shared.get("rust-version"))
    tool = f"cargo>={minimum}" if minimum and re.fullmatch(r"\d+(\.\d+)*", minimum) else "cargo"
    return ManifestFacts(name, "Rust", repo, (tool,))


def _go(text: str | None) -> ManifestFacts:
    module = re.search(r"^module\s+(\S+)", text or "", re.M)
    path = module.group(1) if module else ""
    segments = path.split("/")
    repo = github_repo("/".join(segments[:3])) if segments[0] == "github.com" else None
    parts = [p for p in path.split("/") if not re.fullmatch(r"v\d+", p)]
    version = _GO_VERSION.search(text or "")
    tool = f"go>={version.group(1)}.{version.group(2)}" if version else "go"
    return ManifestFacts(parts[-1] if parts else None, "Go", repo, (tool,))


def _npm(text: str | None, names: set[str]) -> ManifestFacts:
    data = _json(text)
    name = _text(data.get("name"))
    repository = data.get("repository")
    url = repository.get("url") if isinstance(repository, Mapping) else repository
    engines = _table(data, "engines")
    node = _MIN_VERSION.search(str(engines.get("node", "")))
    tools = [f"node>={node.group(1)}" if node else "node"]
    manager = str(data.get("packageManager", ""))
    if manager.startswith("pnpm") or "pnpm-lock.yaml" in names:
        tools.append("pnpm")
    elif "package-lock.json" in names:
        tools.append("npm")
    short = name.rsplit("/", 1)[-1] if name else None
    return ManifestFacts(short, "TypeScript", github_repo(url), tuple(tools))


def _python(text: str | None, names: set[str]) -> ManifestFacts:
    data = _toml(text)
    project = _table(data, "project")
    urls = _table(project, "urls")
    repo = next((r for r in map(github_repo, urls.values()) if r), None)
    floor = _MIN_VERSION.search(str(project.get("requires-python", "")))
    tools = [f"python3>={floor.group(1)}" if floor else "python3"]
    if "uv.lock" in names:
        tools.append("uv")
    return ManifestFacts(_text(project.get("name")), "Python", repo, tuple(tools))


_POM_COMMENT = re.compile(r"<!--.*?-->", re.S)
_POM_JAVA = re.compile(
    r"<(maven\.compiler\.release|maven\.compiler\.source|java\.version|release)>\s*(?:1\.)?(\d+)\s*</\1>"
)
_POM_SCM_URL = re.compile(r"<scm>.*?<url>\s*([^<\s]+)\s*</url>.*?</scm>", re.S)


def _maven(text: str | None) -> ManifestFacts:
    """A root pom.xml: Java, built with `mvn` on the JDK its compiler release names (read as
    text, never parsed as XML); no name (its artifactId names a module, often `…-parent`)."""
    body = _POM_COMMENT.sub("", text or "")
    java = _POM_JAVA.search(body)
    scm = _POM_SCM_URL.search(body)
    tools = (f"java>={java.group(2)}" if java else "java", "mvn")
    return ManifestFacts(None, "Java", github_repo(scm.group(1)) if scm else None, tools)


def read_manifests(root_files: Mapping[str, str | None]) -> ManifestFacts:
    """The facts of the first manifest the root holds (`languages.MANIFESTS` order).

    `root_files` maps each file name at the repository root to its text (None when it was not
    read: only the manifests are)."""
    names = set(root_files)
    language = language_of(names)
    if "Cargo.toml" in names:
        return _cargo(root_files["Cargo.toml"])
    if "go.mod" in names:
        return _go(root_files["go.mod"])
    if "pom.xml" in names:
        return _maven(root_files["pom.xml"])
    if "package.json" in names:
        return _npm(root_files["package.json"], names)
    if "pyproject.toml" in names:
        return _python(root_files["pyproject.toml"], names)
    return ManifestFacts(language=language)
