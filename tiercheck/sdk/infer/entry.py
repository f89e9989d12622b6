"""A registry entry from what the repository says, with a reason for each value it could not infer.

Pure: it takes the texts and facts the edge (`infer.read`) gathered and returns the entry's values
in known_sdks.yaml's order, and one line per value left out or defaulted. Every value comes from
the repository and is untrusted: a value holding a line break or another control character, or
an unexpanded `${…}`, is left out with a reason, never written.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tiercheck.revisions import known_revisions
from tiercheck.sdk.infer.manifest import ManifestFacts
from tiercheck.sdk.infer.tags import tag_prefix
from tiercheck.sdk.infer.workflow import HarnessRun, WorkflowFacts

__all__ = [
    "NAME_PATTERN",
    "GitFacts",
    "InferredEntry",
    "RepoFacts",
    "infer_entry",
    "port_reader",
    "server_dirs",
]

#: A registry entry's name (known_sdks.schema.json's propertyNames).
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_LEGS = ("server", "client")
#: The entry's values `init` infers: each is written, or left out with a `# field: why` line.
_FIELDS = (
    "repo",
    "default_ref",
    "language",
    "revisions",
    "requires",
    "build",
    "server",
    "client",
    "expected_failures",
    "tag_prefix",
)


@dataclass(frozen=True)
class GitFacts:
    """What git says of the checkout; `is_repo` False when it is no git checkout."""

    is_repo: bool = False
    origin_repo: str | None = None
    origin_url: str | None = None
    branch: str | None = None
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class RepoFacts:
    """Everything the edge read: the repository's folder name, its manifests, its workflows'
    conformance runs, its server's sources and git."""

    folder: str
    manifest: ManifestFacts
    workflows: WorkflowFacts
    git: GitFacts
    #: Source files of the conformance server (path → text), for its port flag.
    server_sources: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class InferredEntry:
    """The entry: its name, its values in file order, and (field, why) for each value left out
    or defaulted."""

    name: str
    body: Mapping[str, Any]
    reasons: tuple[tuple[str, str], ...]


def _clean(value: str | None) -> str | None:
    """`value` when it can be written as it is: printable, no unexpanded `${…}`."""
    if value is None or not value.isprintable() or "${" in value or not value.strip():
        return None
    return value


def _why_unclean(value: str | None, what: str) -> str:
    if value is not None and not value.isprintable():
        return f"the workflow's {what} holds a line break or control character"
    return f"the workflow's {what} holds an unexpanded ${{…}} expression"


_IN_FOLDER = re.compile(r"^cd ('[^']*'|[^\s']+) && ")


def build_line(builds: list[str]) -> str:
    """The build commands (each from the repository root, `cd FOLDER && …` for one run in a
    folder) as one shell line: a folder's consecutive commands after one `cd`, in a subshell
    `( … )` when a later command runs elsewhere, so each still starts where it was written."""
    groups: list[tuple[str | None, list[str]]] = []
    for build in builds:
        match = _IN_FOLDER.match(build)
        folder, text = (match.group(1), build[match.end() :]) if match else (None, build)
        if groups and folder is not None and groups[-1][0] == folder:
            groups[-1][1].append(text)
        else:
            groups.append((folder, [text]))
    parts = []
    for n, (folder, texts) in enumerate(groups):
        line = " && ".join(texts)
        if folder is not None:
            line = f"cd {folder} && {line}"
            line = line if n == len(groups) - 1 else f"({line})"
        parts.append(line)
    return " && ".join(parts)


# --- the server's port -----------------------------------------------------------------------

_CLAP_PORT = re.compile(
    r"#\[arg\([^\]]*\blong\b[^\]]*\)\]\s*(?:///[^\n]*\s*|#\[[^\]]*\]\s*)*(?:pub\s+)?port\s*:"
)
_FLAG_TEXT = re.compile(r"(?<![\w-])(--?port)(?:[ =](?:\d+|<|N\b|PORT\b|\{|\$))")
_GO_FLAG = re.compile(r"flag\.(?:Int|String|Uint)(?:Var)?\([^)]*\"port\"")
_PY_FLAG = re.compile(r"add_argument\(\s*[\"'](--port)[\"']|option\(\s*[\"'](--port)[\"']")
_PORT_ENV = re.compile(
    r"env::var\(\s*\"PORT\"|os\.Getenv\(\s*\"PORT\"|process\.env\.PORT\b|"
    r"os\.environ(?:\.get)?[\[(]\s*[\"']PORT[\"']|getenv\(\s*[\"']PORT[\"']"
)


def port_reader(sources: Mapping[str, str]) -> tuple[str | None, bool]:
    """(the port flag the server's sources declare, e.g. `--port`; whether they read `PORT`)."""
    flag = None
    for text in sources.values():
        if _CLAP_PORT.search(text) or _PY_FLAG.search(text):
            flag = "--port"
        elif _GO_FLAG.search(text):
            flag = flag or "-port"
        elif (match := _FLAG_TEXT.search(text)) is not None:
            flag = flag or match.group(1)
    reads_env = any(_PORT_ENV.search(text) for text in sources.values())
    return flag, reads_env


def server_dirs(workflows: WorkflowFacts) -> tuple[str, ...]:
    """The folders that may hold the server's sources: those its start command and the build
    commands that name a server point at (relative to the repository root)."""
    found: list[str] = []
    words: list[str] = []
    for run in workflows.runs:
        words.extend(run.server_start or ())
        if run.server_in and run.server_in[0] not in found:
            found.append(run.server_in[0])  # the folder it was started in
    for build in workflows.builds:
        if "server" in build:
            try:
                words.extend(shlex.split(build))
            except ValueError:
                continue
    for word in words:
        if word.startswith(("-", "/", "$")) or ".." in word.split("/") or "/" not in word:
            continue
        path = posixpath.normpath(word)
        folder = posixpath.dirname(path) if posixpath.splitext(path)[1] else path
        if folder not in {"", "."} and folder not in found:
            found.append(folder)
    return tuple(found)


_SLOT = "TIERCHECKPORTSLOT"


def _join(words: list[str]) -> str:
    """The words as one shell command, each quoted as needed, `{port}` left as it is."""
    return " ".join(shlex.quote(w.replace("{port}", _SLOT)).replace(_SLOT, "{port}") for w in words)


def _with_port(
    argv: tuple[str, ...], url: str, sources: Mapping[str, str]
) -> tuple[str, str, str | None]:
    """(server command, url, why the port stays fixed or None) for a server started by `argv`
    and reached at `url`: the URL's port becomes `{port}` where the command names it, or takes
    the server's port flag, or the server reads PORT."""
    if "{port}" in url:  # a wrapper script's URL follows its PORT, which tiercheck exports
        return _join(list(argv)), url, None
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    command = shlex.join(argv)
    if port is None:
        return command, url, "server.url names no port"
    host = parts.netloc.rsplit(":", 1)[0]
    templated = parts._replace(netloc=f"{host}:{{port}}").geturl()
    text = str(port)
    swapped = [
        w[: -len(text)] + "{port}" if w == text or w.endswith((":" + text, "=" + text)) else w
        for w in argv
    ]
    if swapped != list(argv):
        return _join(swapped), templated, None
    flag, reads_env = port_reader(sources)
    if flag is not None:
        extra = ["--"] if argv[:2] == ("cargo", "run") and "--" not in argv else []
        return f"{command} {' '.join([*extra, flag, '{port}'])}", templated, None
    if reads_env:
        return command, templated, None
    why = (
        f"the server listens on the fixed port {port} (no port flag or PORT "
        "variable in its start command or sources); tiercheck runs its server legs one at a time"
    )
    return command, url, why


# --- the entry --------------------------------------------------------------------------------


class _Builder:
    def __init__(self, facts: RepoFacts) -> None:
        self.facts = facts
        self.reasons: list[tuple[str, str]] = []
        self.runs = facts.workflows.runs
        #: Values inferred to be their default, so left out without a reason (`tag_prefix: ""`).
        self.inferred: set[str] = set()

    def said(self, key: str) -> bool:
        """Whether a reason is given for `key` or one of its parts (`server.url`)."""
        return any(k == key or k.startswith(key + ".") for k, _ in self.reasons)

    def why(self, key: str, text: str) -> None:
        if (key, text) not in self.reasons:
            self.reasons.append((key, text))

    def revisions(self) -> list[str]:
        known = known_revisions()
        named = {r.revision for r in self.runs if r.revision}
        for revision in sorted(named - set(known)):
            shown = revision if revision.isprintable() else repr(revision)
            self.why("revisions", f"{shown} is not a revision tiercheck knows: left out")
        chosen = [r for r in known if r in named]
        if chosen and any(r.revision is None for r in self.runs):
            return list(known)  # runs without --spec-version stand for the other revisions
        if chosen:
            return chosen
        if self.runs:
            self.why("revisions", "the workflows' runs name no --spec-version: every known one")
        else:
            self.why("revisions", "no conformance run in .github/workflows: every known one")
        return list(known)

    def pick(self, leg: str, revision: str) -> HarnessRun | None:
        exact = [r for r in self.runs if r.leg == leg and r.revision == revision]
        bare = [r for r in self.runs if r.leg == leg and r.revision is None]
        found = exact or bare
        return found[0] if found else None

    def server(self, revision: str) -> dict[str, str]:
        run = self.pick("server", revision)
        if run is None:
            self.why("server", "no conformance server run in .github/workflows")
            return {}
        if run.server_start is None and run.wrapper is not None:
            self.why("server", f"{run.wrapper} runs the harness; no server start found in it")
            return {}
        if run.server_start is None:
            self.why("server.command", "no step starts the server in the background before the run")
            return {}
        url = _clean(run.url)
        if url is None:
            self.why(
                "server.url", _why_unclean(run.url, "--url") if run.url else "the run has no --url"
            )
            return {}
        folder, start = run.server_in or ("", run.server_start)
        command, url, why = _with_port(start, url, self.facts.server_sources)
        if folder:  # started in its folder: its words (`-jar target/app.jar`) are written there
            command = f"cd {shlex.quote(folder)} && {command}"
        if _clean(command) is None:
            self.why("server.command", _why_unclean(command, "server start command"))
            return {}
        if why:
            self.why("server.url", why)
        return {"command": command, "url": url}

    def client(self, revision: str) -> dict[str, str]:
        run = self.pick("client", revision)
        if run is None:
            self.why("client", "no conformance client run in .github/workflows")
            return {}
        command = _clean(run.command)
        if command is None:
            why = (
                _why_unclean(run.command, "--command")
                if run.command
                else "the run has no --command"
            )
            self.why("client.command", why)
            return {}
        return {"command": command}

    def baselines(self, revision: str) -> dict[str, str]:
        found = {}
        for leg in _LEGS:
            run = self.pick(leg, revision)
            if run is not None and run.baseline is not None:
                value = _clean(run.baseline)
                if value is None:
                    self.why("expected_failures", _why_unclean(run.baseline, "--expected-failures"))
                else:
                    found[leg] = value
        return found


def _baseline_value(legs: Mapping[str, str]) -> str | dict[str, str] | None:
    if not legs:
        return None
    if set(legs) == set(_LEGS) and legs["server"] == legs["client"]:
        return legs["server"]
    return {leg: legs[leg] for leg in _LEGS if leg in legs}


def _name(facts: RepoFacts, given: str | None, reasons: list[tuple[str, str]]) -> str:
    if given:
        return given
    for candidate in (facts.manifest.name, facts.folder):
        if candidate and NAME_PATTERN.match(candidate):
            if candidate != facts.manifest.name:
                reasons.append(("name", "no manifest names the package: the folder's name"))
            return candidate
    reasons.append(("name", "neither a manifest nor the folder gives a usable name"))
    return "sdk"


def _identity(facts: RepoFacts, b: _Builder, body: dict[str, Any]) -> None:
    """repo, default_ref and language."""
    repo = facts.git.origin_repo or facts.manifest.repo
    if repo:
        body["repo"] = repo
    else:
        b.why("repo", "no GitHub origin remote and no GitHub repository in the manifest")
    if facts.git.branch:
        body["default_ref"] = facts.git.branch
    else:
        body["default_ref"] = "main"
        b.why("default_ref", "no branch is checked out: main")
    if facts.manifest.language:
        body["language"] = facts.manifest.language
    else:
        b.why("language", "no manifest at the root says")


def _override(
    b: _Builder, rev: str, first: tuple[dict[str, str], ...], other: tuple[dict[str, str], ...]
) -> dict[str, Any]:
    """The `spec_overrides[rev]` block: what differs at `rev` from the entry's own values."""
    (server, client, baselines), (o_server, o_client, o_baselines) = first, other
    block: dict[str, Any] = {}
    changed = {k: v for k, v in o_server.items() if server.get(k) != v}
    if changed:
        block["server"] = changed
    if o_client and o_client != client:
        block["client"] = o_client
    for leg in _LEGS:
        if leg in baselines and leg not in o_baselines:
            b.why(
                "expected_failures",
                f"the {leg} runs at {rev} have no baseline; the entry's applies",
            )
    legs = {leg: f for leg, f in o_baselines.items() if baselines.get(leg) != f}
    if legs:
        block["expected_failures"] = _baseline_value(legs)
    return block


def infer_entry(facts: RepoFacts, name: str | None = None) -> InferredEntry:
    """The registry entry `facts` support (named `name` when given)."""
    b = _Builder(facts)
    body: dict[str, Any] = {}
    _identity(facts, b, body)
    revisions = b.revisions()
    body["revisions"] = revisions
    if facts.manifest.requires:
        body["requires"] = list(facts.manifest.requires)
    else:
        b.why("requires", "no manifest at the root says which tools")
    builds = [c for c in facts.workflows.builds if _clean(c) is not None]
    if builds:
        body["build"] = build_line(builds)
    elif facts.workflows.builds:
        b.why("build", _why_unclean(facts.workflows.builds[0], "build command"))
    elif b.runs:
        b.why("build", "the conformance jobs build nothing before their runs")
    else:
        b.why("build", "no conformance run in .github/workflows: no build steps to take")
    per_revision = {rev: (b.server(rev), b.client(rev), b.baselines(rev)) for rev in revisions}
    first = per_revision[revisions[0]]
    server, client, baselines = first
    if server:
        body["server"] = server
    if client:
        body["client"] = client
    if (value := _baseline_value(baselines)) is not None:
        body["expected_failures"] = value
    elif b.runs:
        b.why("expected_failures", f"no run at {revisions[0]} gives --expected-failures")
    else:
        b.why("expected_failures", "no conformance run in .github/workflows: no baseline")
    repo_name = str(body["repo"]).split("/")[1] if "repo" in body else None
    # The folder's name last: the entry's name when nothing else names the package.
    _tag_prefix(facts, body, b, (name, facts.manifest.name, repo_name, facts.folder))
    overrides = {rev: _override(b, rev, first, per_revision[rev]) for rev in revisions[1:]}
    if any(overrides.values()):
        body["spec_overrides"] = {rev: block for rev, block in overrides.items() if block}
    for key in _FIELDS:  # every value left out says why, whatever path left it out
        if key not in body and key not in b.inferred and not b.said(key):
            b.why(key, "not inferred from the repository")
    reasons = list(b.reasons)
    chosen = _name(facts, name, reasons)
    return InferredEntry(chosen, body, tuple(reasons))


def _tag_prefix(
    facts: RepoFacts, body: dict[str, Any], b: _Builder, names: tuple[str | None, ...]
) -> None:
    if not facts.git.is_repo:
        b.why("tag_prefix", "not a git checkout: no tags to read")
        return
    prefix, why = None, None
    for name in dict.fromkeys(n for n in names if n) or [None]:
        prefix, why = tag_prefix(facts.git.tags, name)
        if why is None:
            break
    if why is not None:
        b.why("tag_prefix", why)
    elif prefix == "":
        b.inferred.add("tag_prefix")  # the release tags are bare versions: the default
    elif prefix and _clean(prefix) is not None:
        body["tag_prefix"] = prefix
    else:
        b.why("tag_prefix", "the tags' prefix holds a control character or ${…}: left out")
