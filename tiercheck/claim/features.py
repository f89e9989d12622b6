"""The protocol features an SDK's documentation is expected to cover, with how to spot each one.

The numbering and the grouping (36 core, 6 transport, 6 protocol, and 5 experimental features
that are informational only) follow the official tier audit's canonical list, so row 5 of a
claim lines up with the official assessment feature by feature. The spotting rules are ours: a
feature is *seen* on a line that names its protocol method (`tools/list`) or one of its terms.

A term is written as words separated by spaces (`list tools`); it matches those words joined by
nothing, a space, `_` or `-`, in any case, starting at a word or camelCase boundary, so one term
finds `list_tools`, `ListTools`, `listTools` and "list tools" in prose alike. A term starting
with `re:` is a regular expression (case-insensitive) for what words cannot say, such as two
words on the same line. Terms are deliberately specific: a hit is a pointer for the reviewer to
follow, never proof that the feature is documented.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from tiercheck.revisions import revisions_on

__all__ = [
    "FEATURES",
    "LIFECYCLE",
    "Feature",
    "FeatureGroup",
    "Lifecycle",
    "lifecycle_at",
    "scored_features",
    "stem_pattern",
    "topic_pattern",
]

FeatureGroup = Literal["core", "transport", "protocol", "experimental"]

# A term begins where a word begins: after a non-alphanumeric character, or at a camelCase hump.
_START = r"(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))"
# …and ends where a word ends: before a non-letter, or before the next camelCase hump.
_END = r"(?![a-z0-9])"
_JOIN = r"[ _\-]?"


def _term_pattern(term: str) -> str:
    if term.startswith("re:"):
        return f"(?i:{term[3:]})"
    words = [f"(?i:{word})" for word in term.split()]
    return _START + _JOIN.join(words) + _END


def _method_pattern(method: str) -> str:
    return r"(?<![\w/])" + re.escape(method) + r"(?![\w/])"


@dataclass(frozen=True)
class Feature:
    """One feature: its number in the official list (None when experimental), name and terms."""

    number: int | None
    name: str
    group: FeatureGroup
    methods: tuple[str, ...] = ()
    terms: tuple[str, ...] = field(default=())
    #: Terms that count only in a file whose path contains one of `in_files` (a page about
    #: prompts that says "embedded resource" is about prompts' embedded resources).
    in_files: tuple[str, ...] = ()
    file_terms: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """A stable identifier: the number, or the first method for an experimental feature."""
        return str(self.number) if self.number is not None else self.methods[0]

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """One expression matching any method or term of this feature."""
        parts = [_method_pattern(m) for m in self.methods] + [_term_pattern(t) for t in self.terms]
        return re.compile("|".join(parts))

    @cached_property
    def file_pattern(self) -> re.Pattern[str] | None:
        """The terms that count only in the files `in_files` names."""
        if not self.file_terms:
            return None
        return re.compile("|".join(_term_pattern(t) for t in self.file_terms))

    def applies_in(self, path: str) -> bool:
        """Whether `file_terms` count in the file at `path`."""
        lowered = path.lower()
        return any(part in lowered for part in self.in_files)

    def seen_in(self, line: str, *, in_context: bool = False) -> bool:
        """Whether `line` names this feature (`in_context`: it is in one of `in_files`)."""
        if self.pattern.search(line) is not None:
            return True
        pattern = self.file_pattern
        return in_context and pattern is not None and pattern.search(line) is not None


def _f(
    number: int | None,
    name: str,
    group: FeatureGroup,
    methods: tuple[str, ...] = (),
    terms: tuple[str, ...] = (),
    *,
    in_files: tuple[str, ...] = (),
    file_terms: tuple[str, ...] = (),
) -> Feature:
    return Feature(number, name, group, methods, terms, in_files, file_terms)


_SAME_LINE = "re:{a}.*{b}|{b}.*{a}"


def _both(a: str, b: str) -> str:
    return _SAME_LINE.format(a=a, b=b)


#: Every feature, in the official order: the 48 scored ones, then the experimental ones.
FEATURES: tuple[Feature, ...] = (
    # --- core (36) ---
    _f(1, "Tools: listing", "core", ("tools/list",), ("list tools",)),
    _f(2, "Tools: calling", "core", ("tools/call",), ("call tools?",)),
    _f(3, "Tools: text results", "core", (), ("text content",)),
    _f(4, "Tools: image results", "core", (), ("image content",)),
    _f(5, "Tools: audio results", "core", (), ("audio content",)),
    _f(6, "Tools: embedded resources", "core", (), ("embedded resources?",)),
    _f(7, "Tools: error handling", "core", (), ("is error", "tool errors?")),
    _f(
        8,
        "Tools: list-changed notifications",
        "core",
        ("notifications/tools/list_changed",),
        ("tools? list changed",),
    ),
    _f(9, "Resources: listing", "core", ("resources/list",), ("list resources",)),
    _f(
        10,
        "Resources: reading text",
        "core",
        ("resources/read",),
        ("read resources?", "text resource contents"),
    ),
    _f(
        11, "Resources: reading binary", "core", (), ("blob resource contents", "binary resources?")
    ),
    _f(
        12,
        "Resources: templates",
        "core",
        ("resources/templates/list",),
        ("resource templates?", "list resource templates"),
    ),
    _f(13, "Resources: reading from a template", "core", (), ("uri templates?",)),
    _f(
        14,
        "Resources: subscribing",
        "core",
        ("resources/subscribe",),
        ("subscribe resources?", "resources? subscri\\w*"),
    ),
    _f(
        15,
        "Resources: unsubscribing",
        "core",
        ("resources/unsubscribe",),
        # "unsubscribe" alone: the protocol has nothing else to unsubscribe from.
        ("unsubscribe", "resources? unsubscri\\w*"),
    ),
    _f(
        16,
        "Resources: list-changed notifications",
        "core",
        ("notifications/resources/list_changed",),
        ("resources? list changed",),
    ),
    _f(17, "Prompts: listing", "core", ("prompts/list",), ("list prompts",)),
    _f(18, "Prompts: getting a simple prompt", "core", ("prompts/get",), ("get prompt",)),
    _f(19, "Prompts: getting with arguments", "core", (), ("prompt arguments?",)),
    _f(
        20,
        "Prompts: embedded resources",
        "core",
        (),
        (_both("prompt", "embedded"),),
        in_files=("prompt",),
        file_terms=("embedded resources?",),
    ),
    _f(
        21,
        "Prompts: image content",
        "core",
        (),
        (_both("prompt", "image"),),
        in_files=("prompt",),
        file_terms=("image content", "images?"),
    ),
    _f(
        22,
        "Prompts: list-changed notifications",
        "core",
        ("notifications/prompts/list_changed",),
        ("prompts? list changed",),
    ),
    _f(23, "Sampling: creating messages", "core", ("sampling/createMessage",), ("create message",)),
    _f(24, "Elicitation: form mode", "core", ("elicitation/create",), ("elicit\\w*",)),
    _f(25, "Elicitation: URL mode", "core", (), ("url mode", _both("url", "elicit"))),
    _f(
        26,
        "Elicitation: schema validation",
        "core",
        (),
        ("requested schema", _both("elicit", "(?:schema|validat)")),
    ),
    _f(27, "Elicitation: default values", "core", (), (_both("elicit", "default"),)),
    _f(28, "Elicitation: enum values", "core", (), ("enum names", _both("elicit", "enum"))),
    _f(
        29,
        "Elicitation: completion notification",
        "core",
        ("notifications/elicitation/complete",),
        ("elicitation complete",),
    ),
    _f(30, "Roots: listing", "core", ("roots/list",), ("list roots",)),
    _f(
        31,
        "Roots: list-changed notifications",
        "core",
        ("notifications/roots/list_changed",),
        ("roots? list changed",),
    ),
    _f(
        32,
        "Logging: sending log messages",
        "core",
        ("notifications/message",),
        ("log message", "logging message", "send log\\w*"),
    ),
    _f(
        33,
        "Logging: setting the level",
        "core",
        ("logging/setLevel",),
        ("set level", "set logging level"),
    ),
    _f(
        34,
        "Completions: resource arguments",
        "core",
        ("completion/complete",),
        (_both("complet(?:e|ion)", "resource"),),
    ),
    _f(35, "Completions: prompt arguments", "core", (), (_both("complet(?:e|ion)", "prompt"),)),
    _f(36, "Ping", "core", ("ping",), ("ping",)),
    # --- transport (6) ---
    _f(
        37,
        "Streamable HTTP transport: client",
        "transport",
        (),
        ("streamable (?:http )?client", _both("streamable", "client")),
    ),
    _f(
        38,
        "Streamable HTTP transport: server",
        "transport",
        (),
        ("streamable http (?:server|handler|app)", _both("streamable", "server")),
    ),
    _f(
        39,
        "SSE transport, legacy: client",
        "transport",
        (),
        ("sse client", _both("\\bsse\\b", "client")),
    ),
    _f(
        40,
        "SSE transport, legacy: server",
        "transport",
        (),
        ("sse (?:server|app|handler)", _both("\\bsse\\b", "server")),
    ),
    _f(
        41,
        "stdio transport: client",
        "transport",
        (),
        ("stdio client", "command transport", _both("stdio", "client")),
    ),
    _f(
        42,
        "stdio transport: server",
        "transport",
        (),
        ("stdio server", "stdio transport", _both("stdio", "server")),
    ),
    # --- protocol (6) ---
    _f(
        43,
        "Progress notifications",
        "protocol",
        ("notifications/progress",),
        ("progress notifications?", "progress token", "report progress"),
    ),
    _f(44, "Cancellation", "protocol", ("notifications/cancelled",), ("cancel\\w*",)),
    _f(45, "Pagination", "protocol", (), ("paginat\\w*", "next cursor")),
    _f(46, "Capability negotiation", "protocol", (), ("capabilit(?:y|ies)",)),
    _f(47, "Protocol version negotiation", "protocol", (), ("protocol versions?",)),
    _f(48, "JSON Schema 2020-12", "protocol", (), ("re:2020-12", "json schema dialect")),
    # --- experimental (informational only) ---
    _f(None, "Tasks: get", "experimental", ("tasks/get",), ("get task",)),
    _f(None, "Tasks: result", "experimental", ("tasks/result",), ("task result",)),
    _f(None, "Tasks: cancel", "experimental", ("tasks/cancel",), ("cancel task",)),
    _f(None, "Tasks: list", "experimental", ("tasks/list",), ("list tasks",)),
    _f(
        None,
        "Tasks: status notifications",
        "experimental",
        ("notifications/tasks/status",),
        ("task status",),
    ),
)


def scored_features() -> tuple[Feature, ...]:
    """The 48 features that count toward the documentation requirement."""
    return tuple(f for f in FEATURES if f.group != "experimental")


@dataclass(frozen=True)
class Lifecycle:
    """A feature the spec deprecated or removed, from which revision on, and by what."""

    state: Literal["deprecated", "removed"]
    since: str
    source: str


#: `Lifecycle.since` of a change the stateless wire made: its first revision, read from the
#: revision data when asked (`lifecycle_at`).
STATELESS_WIRE = "the stateless wire"

#: The rows of the official list the spec has since deprecated or removed (conformance#441:
#: "11 of the 48 rows are removed or deprecated" as of the first stateless revision). A gap in
#: one of them does not block a claim at or after that revision: the Ruby review (#3247) called
#: the legacy SSE documentation gap "not blocking" because the feature is deprecated. `{since}`
#: in a source is the revision the change came with.
LIFECYCLE: dict[int, Lifecycle] = {
    14: Lifecycle("removed", STATELESS_WIRE, "SEP-2575 removes resources/subscribe"),
    15: Lifecycle("removed", STATELESS_WIRE, "SEP-2575 removes resources/unsubscribe"),
    23: Lifecycle("deprecated", STATELESS_WIRE, "SEP-2577 deprecates sampling"),
    29: Lifecycle(
        "removed",
        STATELESS_WIRE,
        "notifications/elicitation/complete is not in the {since} schema",
    ),
    30: Lifecycle("deprecated", STATELESS_WIRE, "SEP-2577 deprecates roots"),
    31: Lifecycle("deprecated", STATELESS_WIRE, "SEP-2577 deprecates roots"),
    32: Lifecycle("deprecated", STATELESS_WIRE, "SEP-2577 deprecates logging"),
    33: Lifecycle("removed", STATELESS_WIRE, "SEP-2575 removes logging/setLevel"),
    36: Lifecycle("removed", STATELESS_WIRE, "SEP-2575 removes ping"),
    39: Lifecycle("deprecated", "2025-03-26", "HTTP+SSE is deprecated for Streamable HTTP"),
    40: Lifecycle("deprecated", "2025-03-26", "HTTP+SSE is deprecated for Streamable HTTP"),
}


def lifecycle_at(feature: Feature, revision: str | None) -> Lifecycle | None:
    """How the spec stands on `feature` at `revision` (None: active, or no revision known),
    with `since` a revision. Revisions are dates, so they compare as text."""
    found = LIFECYCLE.get(feature.number) if feature.number is not None else None
    if found is None or revision is None:
        return None
    since = found.since
    if since == STATELESS_WIRE:
        first = revisions_on("stateless")[:1]
        if not first:
            return None
        since = first[0]
    if revision < since:
        return None
    return Lifecycle(found.state, since, found.source.format(since=since))


#: The word a heading about each group of features uses ("## Tools", "### Sampling").
_TOPICS = {
    "Tools": r"tools?",
    "Resources": r"resources?",
    "Prompts": r"prompts?",
    "Sampling": r"sampling",
    "Elicitation": r"elicitations?",
    "Roots": r"roots?",
    "Logging": r"logging|logs?",
    "Completions": r"completions?|autocomplet\w*",
    "Ping": r"ping",
    "Streamable HTTP transport": r"streamable|transports?",
    "SSE transport, legacy": r"sse|transports?",
    "stdio transport": r"stdio|transports?",
    "Progress notifications": r"progress",
    "Cancellation": r"cancel\w*",
    "Pagination": r"paginat\w*|cursors?",
    "Capability negotiation": r"capabilit\w*",
    "Protocol version negotiation": r"versions?|versioning",
    "JSON Schema 2020-12": r"json schema|schemas?",
    "Tasks": r"tasks?",
}


def topic_pattern(feature: Feature) -> re.Pattern[str]:
    """What a heading says when its section is about the feature's topic (`## Tools` for
    "Tools: listing")."""
    topic = feature.name.split(":", 1)[0]
    words = _TOPICS.get(topic, re.escape(topic))
    return re.compile(rf"(?<![A-Za-z0-9])(?:{words})(?![A-Za-z0-9])", re.IGNORECASE)


#: What a heading about one feature says besides its topic, where the first word of the
#: feature's name does not say it ("Tools: listing" → "list", found in "Listing tools").
_STEM_OVERRIDES = {
    8: r"list.?changed|notif\w*|changes?",
    11: r"read\w*|binar\w*|blobs?",
    16: r"list.?changed|notif\w*|changes?",
    18: r"get\w*|simple",
    19: r"argument\w*|param\w*",
    22: r"list.?changed|notif\w*|changes?",
    23: r"creat\w*|messages?|sampl\w*",
    24: r"forms?|elicit\w*",
    26: r"schemas?|validat\w*",
    31: r"list.?changed|notif\w*|changes?",
    32: r"logs?|logging|messages?",
    33: r"levels?",
}


def stem_pattern(feature: Feature) -> re.Pattern[str] | None:
    """What a heading says when it is about this very feature, beside its topic: "list" for
    "Tools: listing" ("## Listing tools"), "call" for "Tools: calling" ("## Calling a tool").
    None for a feature that is its own topic (Ping, Pagination)."""
    if feature.number in _STEM_OVERRIDES:
        words = _STEM_OVERRIDES[feature.number]
    elif ":" in feature.name:
        first = re.split(r"[ ,]", feature.name.split(":", 1)[1].strip())[0].lower()
        stem = re.sub(r"(?:ing|ed|s)$", "", first) or first
        words = re.escape(stem) + r"\w*"
    else:
        return None
    return re.compile(rf"(?<![A-Za-z0-9])(?:{words})", re.IGNORECASE)
