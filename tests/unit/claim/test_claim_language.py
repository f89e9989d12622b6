"""The SDK's language for the claim's title: said outright, else read from its root manifests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiercheck.claim.header import language_of
from tiercheck.claim.sources import read_root_names
from tiercheck.languages import language_from_files


@pytest.mark.parametrize(
    ("files", "language"),
    [
        (["Cargo.toml", "README.md"], "Rust"),
        (["go.mod", "go.sum"], "Go"),
        (["package.json", "tsconfig.json"], "TypeScript"),
        (["pyproject.toml"], "Python"),
        (["setup.py"], "Python"),
        (["pom.xml"], "Java"),
        (["build.gradle"], "Java"),
        (["build.gradle.kts", "settings.gradle.kts"], "Kotlin"),
        (["ModelContextProtocol.csproj"], "C#"),
        (["composer.json"], "PHP"),
        (["Gemfile"], "Ruby"),
        (["mcp.gemspec"], "Ruby"),
        (["Package.swift"], "Swift"),
        (["CMakeLists.txt"], "C++"),
        (["requirements.txt", "server.py"], "Python"),
        # A language's own build file beats another's tooling beside it.
        (["package.json", "Cargo.toml"], "Rust"),
        (["CMakeLists.txt", "pyproject.toml"], "Python"),
        (["package.json", "composer.json"], "PHP"),
        (["README.md", "LICENSE"], None),
        ([], None),
    ],
)
def test_the_manifest_at_the_root_names_the_language(
    files: list[str], language: str | None
) -> None:
    assert language_from_files(files) == language


def test_an_official_name_comes_first_then_the_manifest_then_the_name() -> None:
    # kotlin-sdk builds with Gradle but is Kotlin by name; tower-mcp is Rust by its Cargo.toml.
    assert language_of("modelcontextprotocol/kotlin-sdk", "kotlin-sdk", ["build.gradle"]) == (
        "Kotlin"
    )
    assert language_of("joshrotenberg/tower-mcp", "tower-mcp", ["Cargo.toml"]) == "Rust"
    assert language_of("joshrotenberg/tower-mcp", "tower-mcp") == "Tower Mcp"


def test_the_root_is_listed_files_only(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text("[package]\n")
    (tmp_path / "go.mod").mkdir()  # a folder is no manifest
    assert read_root_names(tmp_path) == ("Cargo.toml",)
    assert read_root_names(tmp_path / "missing") == ()
