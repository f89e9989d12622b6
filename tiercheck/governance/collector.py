"""Collect governance facts from GitHub into a `Snapshot`, frugally and without raising.

GitHub is reached through one `tiercheck.ghapi.Session` (raw JSON, conditional GETs). Costs:

- REST listings (repository, labels, issues, releases, spec releases, git tree) are paginated by
  `Link rel="next"` and sent with `If-None-Match` from an on-disk ETag cache, so a re-run is
  mostly 304s (which GitHub does not count against the rate limit);
- issue timelines (label events, first response) come from GraphQL, 100 issues per query, and
  only for issues whose `updated_at` changed since the cached timeline (labelling and commenting
  both bump it).

A fact group that fails (rate limit beyond the wait bound, 5xx after retries, 403, network, an
answer of the wrong shape, the total deadline passed) is recorded as `Unavailable` with the
reason; `collect` never raises for API errors. A GitHub that cannot be connected to at all (its
name does not resolve, the connection is refused) is given up on at the first attempt: every
group is unavailable with that reason, without retries or back-off per group. The token is
sent as a header only: it is never written to the snapshot or the cache, nor logged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from tiercheck import ghapi
from tiercheck.ghapi import GitHubError, Session, Transport
from tiercheck.ghapi.etag_cache import EtagCache
from tiercheck.governance.disputes import CONFORMANCE_REPO, DISPUTED_LABEL
from tiercheck.governance.snapshot import (
    Author,
    DisputedIssue,
    DisputeFacts,
    Issue,
    IssueEvent,
    IssueFacts,
    LabelEvent,
    LabelFacts,
    PolicyFileFacts,
    Release,
    ReleaseFacts,
    Snapshot,
    Timeline,
    Unavailable,
    format_time,
    parse_time,
)

__all__ = [
    "ANONYMOUS_WARNING",
    "CONFORMANCE_REPO",
    "DISPUTED_LABEL",
    "SPEC_REPO",
    "CollectStats",
    "collect",
]

SPEC_REPO = "modelcontextprotocol/modelcontextprotocol"
_EVENT_ACTIONS = frozenset({"labeled", "unlabeled", "closed", "reopened"})
ANONYMOUS_WARNING = (
    "no GitHub token (--token, GITHUB_TOKEN, GH_TOKEN or `gh auth login`): anonymous requests "
    "are limited to 60 an hour and GraphQL refuses them, so issue timelines (time to first "
    "label, P0 label times) will be inconclusive"
)
_POLICY_DIRS = (".github", "docs")
_T = TypeVar("_T")

# One GraphQL query answers up to 100 issues: their label events and first comments.
_TIMELINE_QUERY = """
query($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Issue {
      number
      timelineItems(first: 50, itemTypes: [LABELED_EVENT, UNLABELED_EVENT]) {
        pageInfo { hasNextPage }
        nodes {
          __typename
          ... on LabeledEvent { createdAt actor { __typename login } label { name } }
          ... on UnlabeledEvent { createdAt actor { __typename login } label { name } }
        }
      }
      comments(first: 20) { nodes { createdAt author { __typename login } } }
    }
  }
}
"""


@dataclass
class CollectStats(ghapi.Counts):
    """How many requests a collection sent, how many were answered 304 Not Modified and how
    many were GraphQL queries (the session counts them), and which fact groups were
    unavailable."""

    unavailable: list[str] = field(default_factory=list)


#: What reading an answer of the wrong shape raises (a list where an object belongs, a null
#: where a string does, a missing key, a timestamp that is not one).
_MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def _malformed(exc: BaseException) -> str:
    return ghapi.unexpected_shape(exc, f"no {exc}" if isinstance(exc, KeyError) else None)


class _Unavailable(Exception):  # noqa: N818 - a fact group's state, not a program error
    """Raised inside a fact group's collection; becomes `Unavailable(reason)`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _reason(failure: ghapi.Failure, transport: Transport) -> str:
    """`failure` as a fact group's reason: the wait bound and the deadline said, the HTTP
    status named."""
    if failure.kind == "rate-limit-wait":
        return f"{failure.reason}, beyond the {transport.max_wait:.0f}s wait bound"
    if failure.kind == "http" and failure.status is not None:
        return _http_reason(failure.status, failure.message)
    if failure.kind == "unreachable":
        return f"cannot connect to GitHub ({failure.where})"
    if failure.kind == "network":
        return f"network error: {failure.name}"
    if failure.kind == "deadline":
        return f"no answer within the governance deadline ({transport.deadline or 0:g}s)"
    return failure.reason


def _why(exc: Exception, gh: Session) -> str:
    """Why a fact group (or a part of one) could not be collected, as `exc` says."""
    if isinstance(exc, _Unavailable):
        return exc.reason
    if isinstance(exc, GitHubError):
        return _reason(exc.failure, gh.transport)
    return _malformed(exc)


def _listing(
    gh: Session, url: str, params: dict[str, Any], max_pages: int
) -> tuple[list[dict[str, Any]], bool]:
    """Every item of a paginated listing (up to `max_pages`); True if pages were left."""
    items: list[dict[str, Any]] = []
    truncated = False
    for page in gh.pages(url, params, max_pages):
        if not isinstance(page.body, list):
            msg = f"GitHub answered {url} with something other than a list"
            raise _Unavailable(msg)
        items.extend(page.body)
        truncated = page.more
    return items, truncated


def _graphql(gh: Session, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    """The `data` object of one GraphQL query's answer."""
    data = gh.graphql(query, variables)
    result = data.get("data") if isinstance(data, dict) else None
    if not isinstance(result, dict):
        raise _Unavailable("GitHub answered GraphQL without a data object")
    return result


def _http_reason(status: int, message: object) -> str:
    detail = f": {message}" if isinstance(message, str) and message else ""
    if status == 429:
        return f"rate limited (HTTP 429){detail}"
    if status >= 500:
        return f"GitHub server error (HTTP {status}){detail}"
    if status == 401:
        return f"authentication failed (HTTP 401){detail}"
    if status == 403:
        return f"forbidden (HTTP 403){detail}"
    if status == 404:
        return f"not found (HTTP 404){detail}"
    return f"HTTP {status}{detail}"


#: What a fact group's collection raises when the group cannot be had.
_FAILED = (_Unavailable, GitHubError, *_MALFORMED)


@dataclass(frozen=True)
class _Groups:
    """Runs each fact group's collection over one session, counting and logging the groups
    that could not be collected."""

    gh: Session
    stats: CollectStats
    log: Callable[[str], None]

    def run(self, name: str, build: Callable[[], _T]) -> _T | Unavailable:
        """`build()`, or `Unavailable(reason)` when it failed."""
        try:
            return build()
        except _FAILED as exc:
            reason = _why(exc, self.gh)
        self.stats.unavailable.append(name)
        self.log(f"{name}: unavailable ({reason})")
        return Unavailable(reason)


def _repository(gh: Session, repo: str) -> dict[str, Any]:
    body, _ = gh.get(f"/repos/{repo}")
    if not isinstance(body, dict):
        msg = "GitHub answered the repository request with something other than an object"
        raise _Unavailable(msg)
    return body


# --- fact groups ---------------------------------------------------------------------------


def _labels(gh: Session, repo: str, repo_json: dict[str, Any]) -> LabelFacts:
    items, _ = _listing(gh, f"/repos/{repo}/labels", {"per_page": 100}, max_pages=20)
    # As the official check reads it: the repository object's `issue_types` field, with
    # JavaScript's truthiness (`!!value`: an empty list is true). The `/issue-types` endpoint is
    # not consulted, as the official code does not consult it.
    uses_types = _js_truthy(repo_json.get("issue_types"))
    if not all(isinstance(item, dict) and isinstance(item.get("name"), str) for item in items):
        raise _Unavailable("GitHub answered a label without a name")
    names = tuple(sorted({item["name"] for item in items}, key=str.lower))
    return LabelFacts(names=names, uses_issue_types=uses_types)


def _js_truthy(value: Any) -> bool:
    """JavaScript's `!!value` for a JSON value: false only for null, false, 0 and ""."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int | float):
        return value != 0 and not math.isnan(value)  # NaN is falsy too
    if isinstance(value, str):
        return value != ""
    return True


def _release(item: dict[str, Any]) -> Release:
    published = item.get("published_at")
    return Release(
        tag=str(item["tag_name"]),
        name=item.get("name"),
        draft=bool(item.get("draft")),
        prerelease=bool(item.get("prerelease")),
        created_at=parse_time(item["created_at"]),
        published_at=parse_time(published) if published else None,
    )


def _releases(gh: Session, repo: str, max_pages: int) -> ReleaseFacts:
    items, truncated = _listing(gh, f"/repos/{repo}/releases", {"per_page": 100}, max_pages)
    return ReleaseFacts(releases=tuple(_release(i) for i in items), truncated=truncated)


def _author(user: dict[str, Any] | None, association: str) -> Author:
    if not user:
        return Author(login="ghost", type="User", association=association)
    return Author(
        login=str(user["login"]), type=str(user.get("type", "User")), association=association
    )


def _issues(gh: Session, repo: str, max_pages: int, log: Callable[[str], None]) -> IssueFacts:
    # Oldest first: new issues then only change the last pages, so the others stay 304.
    items, truncated = _listing(
        gh,
        f"/repos/{repo}/issues",
        {"state": "all", "sort": "created", "direction": "asc", "per_page": 100},
        max_pages,
    )
    raw = [item for item in items if "pull_request" not in item]
    timelines: dict[int, Timeline] = {}
    reason: str | None = None
    if not gh.authenticated:
        reason = "issue timelines need a token (GitHub GraphQL refuses anonymous requests)"
    else:
        try:
            timelines = _timelines(gh, repo, raw)
        except _FAILED as exc:
            why = _why(exc, gh)
            reason = f"issue timelines: {why}"
            log(f"issue timelines unavailable ({why})")
    issues = tuple(
        Issue(
            number=int(item["number"]),
            title=str(item.get("title", "")),
            created_at=parse_time(item["created_at"]),
            updated_at=parse_time(item.get("updated_at") or item["created_at"]),
            closed_at=parse_time(item["closed_at"]) if item.get("closed_at") else None,
            state=str(item["state"]),
            state_reason=item.get("state_reason"),
            author=_author(item.get("user"), str(item.get("author_association", "NONE"))),
            labels=tuple(sorted(str(label["name"]) for label in item.get("labels", []))),
            timeline=None if reason else timelines.get(int(item["number"])),
        )
        for item in sorted(raw, key=lambda i: int(i["number"]))
    )
    return IssueFacts(issues=issues, truncated=truncated, timeline_reason=reason)


def _chunks(items: list[_T], size: int) -> Iterator[list[_T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _timelines(gh: Session, repo: str, raw: list[dict[str, Any]]) -> dict[int, Timeline]:
    """Timelines of every issue: cached ones whose issue is unchanged, the rest via GraphQL."""
    document = f"timelines/{repo.replace('/', '__')}.json"
    cached = (gh.cache.get_document(document) if gh.cache else None) or {}
    entries: dict[str, Any] = cached.get("issues", {}) if isinstance(cached, dict) else {}
    result: dict[int, Timeline] = {}
    stale: list[dict[str, Any]] = []
    for item in raw:
        entry = entries.get(str(item["number"]))
        if isinstance(entry, dict) and entry.get("updated_at") == item.get("updated_at"):
            try:
                result[int(item["number"])] = _timeline_from_cache(entry["timeline"])
                continue
            except (KeyError, TypeError, ValueError):
                pass
        stale.append(item)
    authors = {int(item["number"]): (item.get("user") or {}).get("login") for item in raw}
    # An issue without a node id cannot be asked about: it keeps no timeline, and the
    # signals that need one are inconclusive for it.
    askable = [item for item in stale if isinstance(item.get("node_id"), str)]
    for batch in _chunks(askable, 100):
        data = _graphql(gh, _TIMELINE_QUERY, {"ids": [item["node_id"] for item in batch]})
        nodes = data.get("nodes") or []
        if not isinstance(nodes, list):
            raise _Unavailable("GitHub answered the timeline query without a list of nodes")
        for node in nodes:
            if not isinstance(node, dict) or "number" not in node:
                continue
            number = int(node["number"])
            result[number] = _timeline_from_graphql(node, authors.get(number))
    if gh.cache is not None:
        updated = {str(item["number"]): item.get("updated_at") for item in raw}
        gh.cache.put_document(
            document,
            {
                "issues": {
                    str(number): {
                        "updated_at": updated.get(str(number)),
                        "timeline": _timeline_to_cache(timeline),
                    }
                    for number, timeline in result.items()
                }
            },
        )
    return result


def _actor(actor: dict[str, Any] | None) -> tuple[str | None, str | None]:
    if not actor:
        return None, None
    return actor.get("login"), actor.get("__typename")


def _timeline_from_graphql(node: dict[str, Any], author: str | None) -> Timeline:
    items = node.get("timelineItems") or {}
    events = []
    for event in items.get("nodes") or []:
        if not event or event.get("__typename") not in {"LabeledEvent", "UnlabeledEvent"}:
            continue
        login, kind = _actor(event.get("actor"))
        events.append(
            LabelEvent(
                action="labeled" if event["__typename"] == "LabeledEvent" else "unlabeled",
                label=str((event.get("label") or {}).get("name", "")),
                at=parse_time(event["createdAt"]),
                actor=login,
                actor_type=kind,
            )
        )
    first_response = None
    for comment in (node.get("comments") or {}).get("nodes") or []:
        login, kind = _actor(comment.get("author"))
        if login is None or login == author or kind == "Bot" or login.endswith("[bot]"):
            continue
        first_response = parse_time(comment["createdAt"])
        break
    return Timeline(
        label_events=tuple(sorted(events, key=lambda e: e.at)),
        complete=not (items.get("pageInfo") or {}).get("hasNextPage", False),
        first_response_at=first_response,
    )


def _timeline_to_cache(timeline: Timeline) -> dict[str, Any]:
    return {
        "label_events": [
            [e.action, e.label, format_time(e.at), e.actor, e.actor_type]
            for e in timeline.label_events
        ],
        "complete": timeline.complete,
        "first_response_at": (
            format_time(timeline.first_response_at) if timeline.first_response_at else None
        ),
    }


def _timeline_from_cache(data: dict[str, Any]) -> Timeline:
    return Timeline(
        label_events=tuple(
            LabelEvent(action=a, label=label, at=parse_time(at), actor=actor, actor_type=kind)
            for a, label, at, actor, kind in data["label_events"]
        ),
        complete=bool(data["complete"]),
        first_response_at=(
            parse_time(data["first_response_at"]) if data["first_response_at"] else None
        ),
    )


def _issue_events(gh: Session, repo: str, number: int) -> tuple[tuple[IssueEvent, ...], bool]:
    """An issue's label and open/close events (REST: no token needed), oldest first."""
    items, truncated = _listing(
        gh, f"/repos/{repo}/issues/{number}/events", {"per_page": 100}, max_pages=3
    )
    events = []
    for item in items:
        action = item.get("event")
        if action not in _EVENT_ACTIONS:
            continue
        label = (
            (item.get("label") or {}).get("name") if action in ("labeled", "unlabeled") else None
        )
        events.append(
            IssueEvent(
                action=action,
                at=parse_time(item["created_at"]),
                label=None if label is None else str(label),
            )
        )
    return tuple(sorted(events, key=lambda e: e.at)), not truncated


def _disputes(gh: Session, repo: str, label: str, max_pages: int) -> DisputeFacts:
    """Every issue and pull request of `repo` labelled `label`, open or closed, with events."""
    items, truncated = _listing(
        gh,
        f"/repos/{repo}/issues",
        {"state": "all", "labels": label, "sort": "created", "direction": "asc", "per_page": 100},
        max_pages,
    )
    issues = []
    for item in sorted(items, key=lambda i: int(i["number"])):
        number = int(item["number"])
        events, complete = _issue_events(gh, repo, number)
        issues.append(
            DisputedIssue(
                number=number,
                title=str(item.get("title", "")),
                url=str(item.get("html_url") or f"https://github.com/{repo}/issues/{number}"),
                state=str(item["state"]),
                pull_request="pull_request" in item,
                created_at=parse_time(item["created_at"]),
                closed_at=parse_time(item["closed_at"]) if item.get("closed_at") else None,
                labels=tuple(sorted(str(lab["name"]) for lab in item.get("labels", []))),
                events=events,
                events_complete=complete,
            )
        )
    return DisputeFacts(repo=repo, label=label, issues=tuple(issues), truncated=truncated)


def _policy_paths(path: str) -> bool:
    """Whether a repository path is where policy files may live (root, .github/, docs/)."""
    parts = path.split("/")
    return len(parts) == 1 or (len(parts) == 2 and parts[0].lower() in _POLICY_DIRS)


def _policy_from_checkout(checkout: Path) -> PolicyFileFacts:
    paths: list[str] = []
    for directory in [checkout, *(p for p in checkout.iterdir() if p.is_dir())]:
        relative = "" if directory == checkout else directory.name
        if relative and relative.lower() not in _POLICY_DIRS:
            continue
        for entry in directory.iterdir():
            if entry.is_file():
                paths.append(f"{relative}/{entry.name}" if relative else entry.name)
    return PolicyFileFacts(paths=tuple(sorted(paths)), source="checkout", truncated=False)


def _policy_from_tree(gh: Session, repo: str, ref: str) -> PolicyFileFacts:
    body, _ = gh.get(f"/repos/{repo}/git/trees/{ref}", {"recursive": 1})
    if not isinstance(body, dict):
        msg = "GitHub answered the git tree request with something other than an object"
        raise _Unavailable(msg)
    paths = sorted(
        str(entry["path"])
        for entry in body.get("tree", [])
        if entry.get("type") == "blob" and _policy_paths(str(entry["path"]))
    )
    return PolicyFileFacts(
        paths=tuple(paths), source="git-tree", truncated=bool(body.get("truncated"))
    )


def _labels_and_branch(groups: _Groups, repo: str) -> tuple[LabelFacts | Unavailable, str]:
    """The label facts (which need the repository object: it says whether issue types are in
    use) and the default branch, whose git tree holds the policy files ("HEAD" when the
    repository could not be read)."""
    repo_json = groups.run("repository", lambda: _repository(groups.gh, repo))
    if isinstance(repo_json, Unavailable):
        return repo_json, "HEAD"
    labels = groups.run("labels", lambda: _labels(groups.gh, repo, repo_json))
    return labels, str(repo_json.get("default_branch") or "HEAD")


def _policy(
    groups: _Groups, repo: str, checkout: Path | None, branch: str
) -> PolicyFileFacts | Unavailable:
    """The policy files: from `checkout` when given, else from the git tree of `branch`."""
    if checkout is None:
        return groups.run("policy files", lambda: _policy_from_tree(groups.gh, repo, branch))
    try:
        return _policy_from_checkout(checkout)
    except OSError as exc:
        return Unavailable(f"cannot read checkout {checkout}: {exc.strerror or exc}")


def _disputed(
    groups: _Groups, where: str | None, max_pages: int
) -> DisputeFacts | Unavailable | None:
    """The issues of the conformance repository `where` labelled disputed (None: not asked)."""
    if where is None:
        return None
    return groups.run("disputes", lambda: _disputes(groups.gh, where, DISPUTED_LABEL, max_pages))


# --- the entry point -----------------------------------------------------------------------


def collect(
    repo: str,
    *,
    api_url: str,
    token: str | None,
    cache_dir: Path | None,
    checkout: Path | None,
    now: datetime,
    transport: Transport | None = None,
    max_issue_pages: int = 100,
    max_release_pages: int = 3,
    stats: CollectStats | None = None,
    log: Callable[[str], None] | None = None,
    disputes_repo: str | None = None,
) -> Snapshot:
    """Collect a governance snapshot of `repo` (``owner/name``) as of `now`.

    Args:
        repo: the SDK repository.
        api_url: the REST base (``https://api.github.com``, or ``https://HOST/api/v3``).
        token: a GitHub token, or None for anonymous requests (no issue timelines).
        cache_dir: where ETags, bodies and derived timelines are kept between runs.
        checkout: a local checkout to look for policy files in instead of the git tree.
        now: the capture time written to the snapshot (signals never read the clock).
        transport: how requests travel (default: `ghapi.for_reading()`). A rate limit beyond
            its wait bound makes the group unavailable. With a deadline, no request starts
            after it and each request's own timeout is shortened to fit, so the collection
            ends within about the deadline plus one request timeout; every group not
            collected by then is `Unavailable` with the deadline as the reason.
        max_issue_pages / max_release_pages: pagination bounds (100 items a page).
        stats: filled with request counts, if given.
        log: receives one line per notable event (never a header or token).
        disputes_repo: the conformance repository whose issues labelled ``disputed`` are
            recorded (with their events) in `Snapshot.disputes`; None records none.

    Never raises for API errors: a failing group becomes `Unavailable` with the reason.
    """
    stats = stats if stats is not None else CollectStats()
    cache = EtagCache(cache_dir) if cache_dir is not None else None
    with Session(api_url, token, transport or ghapi.for_reading(), cache=cache, counts=stats) as gh:
        groups = _Groups(gh, stats, log or (lambda _line: None))
        labels, branch = _labels_and_branch(groups, repo)
        issues = groups.run("issues", lambda: _issues(gh, repo, max_issue_pages, groups.log))
        releases = groups.run("releases", lambda: _releases(gh, repo, max_release_pages))
        spec_releases = groups.run("spec releases", lambda: _releases(gh, SPEC_REPO, 1))
        policy = _policy(groups, repo, checkout, branch)
        disputes = _disputed(groups, disputes_repo, max_release_pages)
    return Snapshot(
        repo=repo,
        captured_at=now,
        api_base=api_url.rstrip("/"),
        authenticated=token is not None,
        labels=labels,
        issues=issues,
        releases=releases,
        spec_releases=spec_releases,
        policy_files=policy,
        disputes=disputes,
    )
