"""The language an SDK is written in, from the manifests at the root of its checkout (pure).

The claim's title names it ("Rust SDK — Tier 2 Assessment"). `--language` and the registry's
`language` say it outright; otherwise the official SDKs are known by their repository's name
(`claim.header.language_of`) and any other SDK by the build manifest at its root. Several
manifests can sit side by side (a Rust crate with a package.json for its docs tooling, a Python
package with a CMakeLists.txt for its extension), so the build systems of one language come
first and the ones other languages also use for tooling last. Pure: the names arrive listed.
"""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatchcase

__all__ = ["MANIFESTS", "language_from_files"]

#: (file name or glob at the checkout's root, the language), first match wins.
MANIFESTS: tuple[tuple[str, str], ...] = (
    ("Cargo.toml", "Rust"),
    ("go.mod", "Go"),
    ("pom.xml", "Java"),
    ("build.gradle.kts", "Kotlin"),
    ("build.gradle", "Java"),
    ("*.csproj", "C#"),
    ("*.sln", "C#"),
    ("Package.swift", "Swift"),
    ("composer.json", "PHP"),
    ("Gemfile", "Ruby"),
    ("*.gemspec", "Ruby"),
    ("pyproject.toml", "Python"),
    ("setup.py", "Python"),
    ("package.json", "TypeScript"),
    ("CMakeLists.txt", "C++"),
    ("requirements.txt", "Python"),
)


def language_from_files(names: Iterable[str]) -> str | None:
    """The language of the first manifest (in `MANIFESTS` order) among the root's file
    `names`, or None when none is there."""
    present = tuple(names)
    for pattern, language in MANIFESTS:
        if any(fnmatchcase(name, pattern) for name in present):
            return language
    return None
