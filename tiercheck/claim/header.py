"""The header of a claim: what the filed claims put first, from the scorecard and the checkout.

The filed claims open with the release the assessed commit carries (linked to its registry
page), the branch and the commit, the assessment date, the requested tier, the previous
assessment (its issue and tier), the harness version and the revisions scored, under a title of
the form "<Language> SDK — Tier N Assessment". Pure functions: the git tags and the package
manifest arrive already read (`sources`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from tiercheck.claim.model import ClaimHeader, PreviousAssessment, ReleaseRef
from tiercheck.governance.signals.stable_release import parse_release_version
from tiercheck.languages import language_from_files
from tiercheck.scorecard.model import Scorecard

__all__ = [
    "Manifest",
    "TagFact",
    "build_header",
    "language_of",
    "registry_link",
    "title",
]

#: The language an SDK repository is written in, by its name without `-sdk`.
_LANGUAGES = {
    "python": "Python",
    "typescript": "TypeScript",
    "go": "Go",
    "csharp": "C#",
    "java": "Java",
    "kotlin": "Kotlin",
    "rust": "Rust",
    "ruby": "Ruby",
    "php": "PHP",
    "swift": "Swift",
    "dart": "Dart",
    "elixir": "Elixir",
    "cpp": "C++",
}


@dataclass(frozen=True)
class TagFact:
    """A release tag in the assessed commit's history, and how far the commit is past it."""

    tag: str
    date: str | None
    commits_after: int | None


@dataclass(frozen=True)
class Manifest:
    """The package a checkout publishes: its registry kind and its name there."""

    kind: str  # pypi, npm, go, crates, rubygems, packagist, maven, nuget
    name: str


def language_of(repo: str, sdk: str, files: Iterable[str] = ()) -> str:
    """`modelcontextprotocol/python-sdk` → Python; another SDK by the manifest among the
    checkout's root `files` (Cargo.toml → Rust); else its name, title-cased (`Sample`)."""
    for name in (repo.rsplit("/", 1)[-1], sdk):
        key = name.lower().removesuffix("-v1").removesuffix("-sdk").removeprefix("mcp-")
        if key in _LANGUAGES:
            return _LANGUAGES[key]
    found = language_from_files(files)
    if found is not None:
        return found
    base = repo.rsplit("/", 1)[-1] or sdk
    key = base.lower().removesuffix("-sdk")
    return key.replace("-", " ").title() if key else "MCP"


def title(language: str, tier: int) -> str:
    """The issue title the filed claims use."""
    return f"{language} SDK — Tier {tier} Assessment"


def _version_text(tag: str, tag_prefix: str | None) -> tuple[str, bool]:
    version = parse_release_version(tag, tag_prefix or None)
    if version is None:
        return tag, False
    return version.text, version.is_plain and version.major >= 1


def registry_link(manifest: Manifest | None, tag: str, version: str) -> tuple[str, str] | None:
    """(registry, page of this version) for the package the manifest names."""
    if manifest is None:
        return None
    name = manifest.name
    pages = {
        "pypi": ("PyPI", f"https://pypi.org/project/{name}/{version}/"),
        "npm": ("npm", f"https://www.npmjs.com/package/{name}/v/{version}"),
        # Go modules are versioned by their tag (v1.7.0), the module path is the name.
        "go": ("pkg.go.dev", f"https://pkg.go.dev/{name}@{tag.rsplit('/', 1)[-1]}"),
        "crates": ("crates.io", f"https://crates.io/crates/{name}/{version}"),
        "rubygems": ("RubyGems", f"https://rubygems.org/gems/{name}/versions/{version}"),
        "packagist": ("Packagist", f"https://packagist.org/packages/{name}#v{version}"),
        "maven": ("Maven Central", f"https://central.sonatype.com/artifact/{name}/{version}"),
        "nuget": ("NuGet", f"https://www.nuget.org/packages/{name}/{version}"),
    }
    return pages.get(manifest.kind)


def _release(
    doc: Scorecard,
    fact: TagFact | None,
    *,
    tag_prefix: str | None,
    manifest: Manifest | None,
    published: dict[str, tuple[str, str]],
) -> ReleaseRef | None:
    if fact is None:
        return None
    version, stable = _version_text(fact.tag, tag_prefix)
    github = published.get(fact.tag)
    link = registry_link(manifest, fact.tag, version)
    return ReleaseRef(
        tag=fact.tag,
        version=version,
        stable=stable,
        commits_after=fact.commits_after,
        published_at=github[0] if github else fact.date,
        published_source="GitHub release" if github else ("git tag" if fact.date else None),
        url=github[1] if github else f"https://github.com/{doc.repo}/releases/tag/{fact.tag}",
        registry=link[0] if link else None,
        registry_url=link[1] if link else None,
    )


def _date(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).date().isoformat()
    except ValueError:
        return stamp[:10]


def build_header(
    doc: Scorecard,
    *,
    requested_tier: int,
    release: TagFact | None = None,
    tag_prefix: str | None = None,
    manifest: Manifest | None = None,
    published: dict[str, tuple[str, str]] | None = None,
    previous: PreviousAssessment | None = None,
    language: str | None = None,
    root_files: Iterable[str] = (),
) -> ClaimHeader:
    """The header of a claim for `requested_tier` on `doc`.

    `published` maps a release tag to (published_at, page) from the governance snapshot, so the
    release's date is GitHub's when it was read, else the tag's own.
    """
    lang = language or language_of(doc.repo, doc.sdk.name, root_files)
    newest = doc.checks.stable_release.get("version")
    return ClaimHeader(
        title=title(lang, requested_tier),
        language=lang,
        repo=doc.repo,
        sdk=doc.sdk.name,
        release=_release(
            doc, release, tag_prefix=tag_prefix, manifest=manifest, published=published or {}
        ),
        newest_stable=str(newest) if newest else None,
        branch=doc.branch,
        commit=doc.sdk.commit,
        date=_date(doc.timestamp),
        timestamp=doc.timestamp,
        requested_tier=requested_tier,
        previous=previous,
        harness=doc.harness.package,
        harness_version=doc.harness.version,
        tiercheck_version=doc.tiercheck.version,
        revisions=tuple(doc.requirements_revisions),
        harness_definitions=dict(doc.harness.definitions) if doc.harness.definitions else None,
    )
