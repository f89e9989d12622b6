"""Rows 6–8, the policies: which policy files exist at the assessed commit, and are they real.

Pure functions of the files `sources.read_tree` read. The file lists are the official ones (the
same thirteen paths the official `policy_signals` check asks GitHub for). What a rule can decide
is decided: no file, or only placeholders, fails; a Dependabot or Renovate configuration with at
least one update entry passes the dependency policy, as the official rules say automated tooling
counts. Whether a substantive policy document says what the tier asks is a person's call, so it
is left to review, never passed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tiercheck.claim.tree import SourceTree

__all__ = [
    "DEPENDENCY_FILES",
    "POLICY_PATHS",
    "ROADMAP_FILES",
    "VERSIONING_FILES",
    "PolicyFile",
    "PolicyFinding",
    "commitment",
    "find_policies",
    "prose_units",
]

DEPENDENCY_FILES = ("DEPENDENCY_POLICY.md", "docs/dependency-policy.md")
AUTOMATION_FILES = (".github/dependabot.yml", ".github/renovate.json", "renovate.json")
ROADMAP_FILES = ("ROADMAP.md", "docs/roadmap.md")
VERSIONING_FILES = ("VERSIONING.md", "docs/versioning.md", "BREAKING_CHANGES.md")
CONTRIBUTING = "CONTRIBUTING.md"
#: Every path a claim reads beside the documentation.
POLICY_PATHS = (
    *DEPENDENCY_FILES,
    *AUTOMATION_FILES,
    *ROADMAP_FILES,
    *VERSIONING_FILES,
    CONTRIBUTING,
)

#: A policy with fewer prose units (sentences or list items of three words or more) is a
#: placeholder: a heading and a line or two promise a policy without stating one.
MIN_PROSE_UNITS = 3

Verdict = Literal["pass", "fail", "needs review", "n/a"]

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_VERSIONING_HEADING = re.compile(r"versioning|breaking change|semver|semantic version", re.I)


def _words(text: str) -> int:
    return len(re.findall(r"[A-Za-z0-9][\w'’-]*", text))


def prose_units(text: str) -> int:
    """Sentences and list items of three words or more, outside headings and code blocks."""
    units = 0
    fenced = False
    paragraph: list[str] = []

    def flush() -> int:
        joined = " ".join(paragraph).strip()
        paragraph.clear()
        if not joined:
            return 0
        return sum(1 for piece in _SENTENCE_END.split(joined) if _words(piece) >= 3)

    for line in text.splitlines():
        if line.strip().startswith(("```", "~~~")):
            fenced = not fenced
            units += flush()
            continue
        if fenced or _HEADING.match(line) or not line.strip():
            units += flush()
            continue
        item = _LIST_ITEM.match(line)
        if item:
            units += flush()
            units += 1 if _words(item.group(1)) >= 3 else 0
            continue
        paragraph.append(line.strip())
    return units + flush()


_COMMITMENT = (
    (re.compile(r"\b(?:will|must|shall|commits?|committed|guarantees?|promises?)\b", re.I), 3),
    (re.compile(r"\bwithin\s+\d+|\b\d+\s*(?:days?|weeks?|months?|hours?)\b", re.I), 3),
    (re.compile(r"\b(?:every|each|weekly|monthly|quarterly|daily|regularly|only)\b", re.I), 2),
)
#: Words that say what each policy is about: a sentence with them is about the policy.
_TOPIC_WORDS = {
    "dependency": re.compile(
        r"dependabot|renovate|dependenc|update|upgrade|pin|floor|lockfile|security", re.I
    ),
    "roadmap": re.compile(r"spec|revision|roadmap|plan|milestone|release|tier|support", re.I),
    "versioning": re.compile(
        r"semver|semantic version|breaking|major|minor|patch|deprecat|version", re.I
    ),
}
#: What each policy is most often summarised by (the filed claims' own summaries): worth more.
_KEY_WORDS = {
    "dependency": re.compile(r"dependabot|renovate", re.I),
    "roadmap": re.compile(r"\b(?:plan(?:ned|s)?|next|upcoming|target(?:s|ed)?|priorit\w*)\b", re.I),
    "versioning": re.compile(r"semver|semantic versioning", re.I),
}
#: How much of the chosen sentence a claim quotes.
QUOTE_LIMIT = 220


def _sentences(text: str) -> list[tuple[int, str]]:
    """(line, sentence) of every prose sentence and list item, outside headings and code."""
    out: list[tuple[int, str]] = []
    fenced = False
    paragraph: list[tuple[int, str]] = []

    def flush() -> None:
        if not paragraph:
            return
        start = paragraph[0][0]
        joined = " ".join(line for _, line in paragraph)
        for piece in _SENTENCE_END.split(joined):
            words = piece.strip()
            if _words(words) >= 6:
                # The line the sentence starts on: the first paragraph line holding its start.
                head = words[:24]
                line = next((n for n, text in paragraph if head in text), start)
                out.append((line, words))
        paragraph.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith(("```", "~~~")):
            fenced = not fenced
            flush()
            continue
        if fenced or _HEADING.match(line) or not line.strip():
            flush()
            continue
        item = _LIST_ITEM.match(line)
        if item:
            flush()
            paragraph.append((number, item.group(1).strip()))
            continue
        paragraph.append((number, line.strip()))
    flush()
    return out


def _plain(sentence: str) -> str:
    # Markdown links read as their text; emphasis and code marks go.
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", sentence)
    return re.sub(r"[*_`]+", "", text).strip()


def commitment(text: str, topic: str) -> tuple[int, str] | None:
    """The sentence of `text` that best says what the policy commits to, and its line: the one
    with the most commitment words (will, must, within N days, every, …), about the policy's
    topic, the earliest of equals. A fixed rule, so the reviewer still reads the file."""
    about = _TOPIC_WORDS[topic]
    best: tuple[int, int, str] | None = None
    for line, sentence in _sentences(text):
        score = sum(weight for pattern, weight in _COMMITMENT if pattern.search(sentence))
        score += 2 if about.search(sentence) else 0
        score += 3 if _KEY_WORDS[topic].search(sentence) else 0
        if best is None or score > best[0]:
            best = (score, line, sentence)
    if best is None:
        return None
    plain = _plain(best[2])
    if len(plain) > QUOTE_LIMIT:
        plain = plain[: QUOTE_LIMIT - 1].rstrip() + "…"
    return best[1], plain


def _yaml_update_entries(text: str) -> int:
    # Dependabot: `updates:` then list entries with `package-ecosystem`. Counted without a YAML
    # parser so a malformed file reads as "not configured" rather than as an error.
    return len(re.findall(r"^\s*-\s*package-ecosystem\s*:", text, re.M))


@dataclass(frozen=True)
class PolicyFile:
    """One policy file found at the assessed commit, with the sentence that best says what it
    commits to (`quote`, from line `quote_line`)."""

    path: str
    size: int
    prose_units: int
    placeholder: bool
    note: str | None = None
    quote: str | None = None
    quote_line: int | None = None


@dataclass(frozen=True)
class PolicyFinding:
    """What the files say of one policy requirement, per tier, and what a reviewer checks."""

    requirement: str
    files: tuple[PolicyFile, ...]
    missing: tuple[str, ...]
    tier1: Verdict
    tier2: Verdict
    summary: str
    review: str


def _file(tree: SourceTree, path: str, topic: str) -> PolicyFile | None:
    text = tree.text(path)
    if text is None:
        return None
    units = prose_units(text)
    quoted = commitment(text, topic)
    return PolicyFile(
        path,
        len(text.encode("utf-8")),
        units,
        units < MIN_PROSE_UNITS,
        quote=quoted[1] if quoted else None,
        quote_line=quoted[0] if quoted else None,
    )


def _documents(
    tree: SourceTree, paths: tuple[str, ...], topic: str
) -> tuple[list[PolicyFile], list[str]]:
    found = [f for f in (_file(tree, p, topic) for p in paths) if f is not None]
    present = {f.path for f in found}
    return found, [p for p in paths if p not in present]


def _document_verdict(found: list[PolicyFile]) -> Verdict:
    if not found:
        return "fail"
    if all(f.placeholder for f in found):
        return "fail"
    return "needs review"


def _describe(found: list[PolicyFile]) -> str:
    if not found:
        return "not found"
    parts = []
    for f in found:
        flag = ", placeholder" if f.placeholder else ""
        parts.append(f"{f.path} ({f.size} bytes, {f.prose_units} sentences{flag})")
    return "; ".join(parts)


def _dependency(tree: SourceTree) -> PolicyFinding:
    found, missing = _documents(tree, DEPENDENCY_FILES, "dependency")
    automation: list[PolicyFile] = []
    for path in AUTOMATION_FILES:
        text = tree.text(path)
        if text is None:
            missing.append(path)
            continue
        if path.endswith(".yml"):
            entries = _yaml_update_entries(text)
            ok = entries > 0
            note = f"{entries} update entr{'y' if entries == 1 else 'ies'}"
            schedules = _dependabot_schedules(text)
            if schedules:
                note += ": " + ", ".join(schedules)
        else:
            ok = bool(text.strip()) and text.strip() != "{}"
            note = "Renovate configuration" if ok else "empty Renovate configuration"
        automation.append(PolicyFile(path, len(text.encode("utf-8")), 0, not ok, note=note))
    configured = [f for f in automation if not f.placeholder]
    if configured:
        verdict: Verdict = "pass"
        summary = f"automated updates configured: {_describe_automation(configured)}"
    else:
        verdict = _document_verdict(found)
        summary = _describe(found + automation) if found or automation else "not found"
    return PolicyFinding(
        requirement="Dependency policy",
        files=(*found, *automation),
        missing=tuple(missing),
        tier1=verdict,
        tier2=verdict,
        summary=summary,
        review=(
            "the policy says how and when dependencies are updated (or the Dependabot/Renovate "
            "configuration covers every package ecosystem of the SDK)"
        ),
    )


def _dependabot_schedules(text: str) -> list[str]:
    """`pip weekly`, one per update entry, in file order (read without a YAML parser)."""
    out = []
    for block in re.split(r"^\s*-\s*(?=package-ecosystem\s*:)", text, flags=re.M)[1:]:
        ecosystem = re.match(r"package-ecosystem\s*:\s*[\"']?([\w-]+)", block)
        interval = re.search(r"interval\s*:\s*[\"']?([\w-]+)", block)
        if ecosystem:
            out.append(ecosystem.group(1) + (f" {interval.group(1)}" if interval else ""))
    return out


def _describe_automation(files: list[PolicyFile]) -> str:
    return "; ".join(f"{f.path} ({f.note})" for f in files)


def _roadmap(tree: SourceTree) -> PolicyFinding:
    found, missing = _documents(tree, ROADMAP_FILES, "roadmap")
    verdict = _document_verdict(found)
    return PolicyFinding(
        requirement="Roadmap",
        files=tuple(found),
        missing=tuple(missing),
        tier1=verdict,
        tier2=verdict,
        summary=_describe(found),
        review=(
            "Tier 1: concrete work items tracking the spec's components; Tier 2: a plan toward "
            "Tier 1 or why the SDK stays at Tier 2 (a CHANGELOG is not a roadmap)"
        ),
    )


def _contributing_section(tree: SourceTree) -> PolicyFile | None:
    text = tree.text(CONTRIBUTING)
    if text is None:
        return None
    lines = text.splitlines()
    for index, line in enumerate(lines):
        heading = _HEADING.match(line)
        if not heading or not _VERSIONING_HEADING.search(heading.group(2)):
            continue
        level = len(heading.group(1))
        body: list[str] = []
        for following in lines[index + 1 :]:
            nxt = _HEADING.match(following)
            if nxt and len(nxt.group(1)) <= level:
                break
            body.append(following)
        section = "\n".join(body)
        units = prose_units(section)
        quoted = commitment(section, "versioning")
        return PolicyFile(
            f"{CONTRIBUTING}#L{index + 1}",
            len(section.encode("utf-8")),
            units,
            units < MIN_PROSE_UNITS,
            note=f"section “{heading.group(2)}”",
            quote=quoted[1] if quoted else None,
            quote_line=index + 1 + quoted[0] if quoted else None,
        )
    return None


def _versioning(tree: SourceTree) -> PolicyFinding:
    found, missing = _documents(tree, VERSIONING_FILES, "versioning")
    section = _contributing_section(tree)
    if section is not None:
        found.append(section)
    verdict = _document_verdict(found)
    return PolicyFinding(
        requirement="Versioning policy",
        files=tuple(found),
        missing=tuple(missing),
        tier1=verdict,
        tier2="n/a",
        summary=_describe(found),
        review=(
            "it says what counts as a breaking change, how breaking changes are announced, "
            "and which versioning scheme releases follow"
        ),
    )


def find_policies(tree: SourceTree) -> tuple[PolicyFinding, PolicyFinding, PolicyFinding]:
    """Rows 6, 7 and 8: dependency policy, roadmap, versioning policy."""
    return _dependency(tree), _roadmap(tree), _versioning(tree)
