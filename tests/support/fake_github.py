"""A fake GitHub API on a real socket, for driving real PyGithub in tests.

stdlib `ThreadingHTTPServer` on 127.0.0.1, port 0. It serves a dataset defined by the test:
repository, labels, issue types, issues with pull requests mixed in (REST), issue timelines
(GraphQL `nodes(ids:)`), releases, the spec repository's releases, a git tree and the contents
API. It filters issues as GitHub does (`state`, `labels`, `since`, `sort`, `direction`), lists
releases newest-created first, paginates with `Link rel="next"` (and `page=`) exactly as GitHub
does, answers `If-None-Match` with 304, can be scripted to fail (403 rate limit, 429, 5xx), to
answer in the wrong shape (`reshape`) or never (`hang`), and logs every request so tests can
count them.

It also takes writes as GitHub does for the nightly's tracking issues: create an issue (POST),
get and edit one (PATCH: body, title, state, state_reason; closing sets `closed_at`), list, add
and edit its comments. Writes need an `Authorization` header (401 without, as GitHub answers),
a body over 65,536 characters is refused (422, as GitHub refuses it), and each write is stamped
with `now`, which the test moves night by night.

Each write is made by the account of its token: `Dataset.accounts` maps a token to a user's
login (GET /user answers it), `Dataset.integrations` a token to an App's or Actions' bot login
(GET /user answers 403 "Resource not accessible by integration", as GitHub does for them); a
token named in neither is the workflow's own (`github-actions[bot]`). The issues and comments
a test seeds carry their own authors, so another account's can be planted. Every logged
request records the login of its token.

It is thread-safe (one lock around every answer), so several clients can write at once, and
`gate(pattern, parties)` holds the first `parties` matching requests until all have arrived,
so a test can make two runs list the issues before either writes.

One server can serve many datasets: `add(key, dataset)` mounts one under ``/d/<key>`` and
returns its API base, so a differential test reuses a single server for all of them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

RATE_RESET = 4102444800  # 2100-01-01: far enough that a primary rate limit is never waited out


@dataclass(frozen=True)
class FakeEvent:
    """A timeline entry: ``labeled``/``unlabeled`` (with a label), ``closed``/``reopened`` or
    ``comment``."""

    kind: str
    at: str
    actor: str
    actor_type: str = "User"
    label: str = ""


@dataclass(frozen=True)
class FakeIssue:
    """One issue or pull request of the dataset."""

    number: int
    title: str
    created_at: str
    author: str = "alice"
    author_type: str = "User"
    association: str = "NONE"
    labels: tuple[str, ...] = ()
    closed_at: str | None = None
    state_reason: str | None = None
    pull_request: bool = False
    events: tuple[FakeEvent, ...] = ()
    body: str | None = None

    @property
    def updated_at(self) -> str:
        """The latest moment anything happened to the issue (as GitHub's updated_at)."""
        times = [self.created_at, *(e.at for e in self.events)]
        if self.closed_at:
            times.append(self.closed_at)
        return max(times)


@dataclass(frozen=True)
class FakeRelease:
    """One release, REST-shaped on output."""

    tag: str
    created_at: str
    published_at: str | None
    draft: bool = False
    prerelease: bool = False


@dataclass(frozen=True)
class FakeComment:
    """A comment on an issue or a pull request's conversation."""

    id: int
    issue: int
    body: str
    created_at: str
    updated_at: str
    author: str = "github-actions[bot]"
    author_type: str = "Bot"


@dataclass
class Dataset:
    """Everything the fake serves."""

    repo: str
    labels: list[str] = field(default_factory=list)
    issue_types: list[str] = field(default_factory=list)
    issues: list[FakeIssue] = field(default_factory=list)
    releases: list[FakeRelease] = field(default_factory=list)
    spec_releases: list[FakeRelease] = field(default_factory=list)
    tree: list[str] = field(default_factory=list)
    default_branch: str = "main"
    #: The repository object's `issue_types` field, served as given when present is True.
    repo_issue_types: Any = None
    repo_issue_types_present: bool = False
    comments: list[FakeComment] = field(default_factory=list)
    #: Token → a user's login (GET /user answers it; writes are made as that user).
    accounts: dict[str, str] = field(default_factory=dict)
    #: Token → an App's or Actions' bot login (GET /user is refused; writes are made as it).
    integrations: dict[str, str] = field(default_factory=dict)
    #: The conformance repository's issues (its listing and each one's REST event list).
    conformance_issues: list[FakeIssue] = field(default_factory=list)


@dataclass(frozen=True)
class LoggedRequest:
    """One request as the server saw it."""

    method: str
    path: str
    query: str
    status: int
    authorization: str | None
    #: The account of the request's token (None: no token).
    login: str | None = None


@dataclass
class Failure:
    """A scripted failure: requests whose path matches `pattern` get this response."""

    pattern: str
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int | None  # None: forever
    method: str | None = None  # None: every method


@dataclass
class Gate:
    """The first `parties` requests of `method` whose path matches `pattern` wait for each
    other (at most `timeout` seconds) before they are answered."""

    pattern: str
    method: str | None
    barrier: threading.Barrier
    remaining: int


SPEC_REPO = "modelcontextprotocol/modelcontextprotocol"
CONFORMANCE_REPO = "modelcontextprotocol/conformance"
#: The login a token the dataset does not name writes as (the workflow's own token).
ACTIONS_BOT = "github-actions[bot]"
#: GitHub's limit on an issue's or a comment's body.
MAX_BODY = 65_536


class FakeGitHub:
    """The server, its dataset, its scripted failures and its request log."""

    def __init__(self, dataset: Dataset | None = None) -> None:
        """Bind 127.0.0.1 on a free port; call `start()` to serve."""
        self.dataset = dataset or Dataset(repo="none/none")
        self.mounted: dict[str, Dataset] = {}
        self.log: list[LoggedRequest] = []
        self.failures: list[Failure] = []
        #: (path regex, payload → payload) applied to what a route would answer.
        self.reshapers: list[tuple[str, Callable[[Any], Any]]] = []
        #: Path regexes whose requests are accepted and never answered (until `stop`).
        self.hangs: list[str] = []
        self.gates: list[Gate] = []
        self.released = threading.Event()
        # Re-entrant: a write route holds it while it answers, and answering logs under it.
        self.lock = threading.RLock()
        #: The moment writes are stamped with (created_at, updated_at, closed_at).
        self.now = "2026-01-01T00:00:00Z"
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.server.daemon_threads = True
        self.server.fake = self  # type: ignore[attr-defined]
        # A short poll keeps `stop()` from waiting out serve_forever's default half second.
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True
        )

    @property
    def url(self) -> str:
        """The API base URL (GraphQL is at ``/graphql`` under it)."""
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def add(self, key: str, dataset: Dataset) -> str:
        """Serve `dataset` under ``/d/<key>`` as well; returns that API base URL."""
        with self.lock:
            self.mounted[key] = dataset
        return f"{self.url}/d/{key}"

    def start(self) -> FakeGitHub:
        """Serve in a background thread."""
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (hung requests are let go first)."""
        self.released.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def fail(
        self,
        pattern: str,
        status: int,
        message: str = "failure",
        *,
        headers: dict[str, str] | None = None,
        times: int | None = None,
        method: str | None = None,
    ) -> None:
        """Answer requests whose path matches `pattern` (a regex), of `method` if given, with
        `status`."""
        with self.lock:
            self.failures.append(
                Failure(pattern, status, {"message": message}, headers or {}, times, method)
            )

    def reshape(self, pattern: str, change: Callable[[Any], Any]) -> None:
        """Answer requests whose path matches `pattern` with `change(payload)` instead.

        The payload is the decoded JSON the route would send (for GraphQL, the whole
        `{"data": …}` document); `change` may return anything JSON can hold.
        """
        with self.lock:
            self.reshapers.append((pattern, change))

    def hang(self, pattern: str = ".*") -> None:
        """Accept requests whose path matches `pattern` and never answer them."""
        with self.lock:
            self.hangs.append(pattern)

    def gate(
        self, pattern: str, parties: int, *, method: str | None = "GET", timeout: float = 30.0
    ) -> None:
        """Hold the first `parties` requests matching `pattern` until all have arrived."""
        with self.lock:
            barrier = threading.Barrier(parties, timeout=timeout)
            self.gates.append(Gate(pattern, method, barrier, parties))

    def _gated(self, path: str, method: str) -> threading.Barrier | None:
        with self.lock:
            for gate in self.gates:
                wanted = gate.method is None or gate.method == method
                if gate.remaining and wanted and re.search(gate.pattern, path):
                    gate.remaining -= 1
                    return gate.barrier
        return None

    def _reshaped(self, path: str, payload: Any) -> Any:
        with self.lock:
            changes = [change for pattern, change in self.reshapers if re.search(pattern, path)]
        for change in changes:
            payload = change(payload)
        return payload

    def rate_limit_everything(self) -> None:
        """Every request gets GitHub's primary rate-limit 403 (reset far in the future)."""
        self.fail(
            ".*",
            403,
            "API rate limit exceeded for 127.0.0.1.",
            headers={"X-RateLimit-Remaining": "0"},
        )

    def reset_log(self) -> None:
        """Forget the requests seen so far."""
        with self.lock:
            self.log.clear()

    def requests(self, method: str | None = None, *, status: int | None = None) -> int:
        """How many requests were logged (optionally of one method / status)."""
        with self.lock:
            return sum(
                1
                for r in self.log
                if (method is None or r.method == method) and (status is None or r.status == status)
            )

    def writes(self) -> list[LoggedRequest]:
        """The write requests logged so far (POST other than GraphQL, PATCH), in order."""
        with self.lock:
            return [
                r
                for r in self.log
                if r.method == "PATCH" or (r.method == "POST" and not r.path.endswith("/graphql"))
            ]

    def issue(self, number: int) -> FakeIssue:
        """The dataset's issue `number` as it stands."""
        with self.lock:
            return next(i for i in self.dataset.issues if i.number == number)

    def comments_of(self, number: int) -> list[FakeComment]:
        """The comments on issue (or pull request) `number`, oldest first."""
        with self.lock:
            return [c for c in self.dataset.comments if c.issue == number]

    def _scripted(self, path: str, method: str) -> Failure | None:
        with self.lock:
            for failure in self.failures:
                if failure.times == 0 or not re.search(failure.pattern, path):
                    continue
                if failure.method is not None and failure.method != method:
                    continue
                if failure.times is not None:
                    failure.times -= 1
                return failure
        return None


# --- JSON shapes ---------------------------------------------------------------------------


def _issue_json(issue: FakeIssue, base: str, repo: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "url": f"{base}/repos/{repo}/issues/{issue.number}",
        "number": issue.number,
        "node_id": f"I_{issue.number}",
        "title": issue.title,
        "state": "closed" if issue.closed_at else "open",
        "state_reason": issue.state_reason,
        "created_at": issue.created_at,
        "updated_at": issue.updated_at,
        "closed_at": issue.closed_at,
        "labels": [{"name": name} for name in issue.labels],
        "user": {"login": issue.author, "type": issue.author_type},
        "author_association": issue.association,
        "body": issue.body,
    }
    if issue.pull_request:
        data["pull_request"] = {"url": f"{base}/repos/{repo}/pulls/{issue.number}"}
    return data


def _comment_json(comment: FakeComment, base: str, repo: str) -> dict[str, Any]:
    return {
        "id": comment.id,
        "url": f"{base}/repos/{repo}/issues/comments/{comment.id}",
        "issue_url": f"{base}/repos/{repo}/issues/{comment.issue}",
        "body": comment.body,
        "user": {"login": comment.author, "type": comment.author_type},
        "created_at": comment.created_at,
        "updated_at": comment.updated_at,
    }


def _release_json(release: FakeRelease) -> dict[str, Any]:
    return {
        "tag_name": release.tag,
        "name": release.tag,
        "draft": release.draft,
        "prerelease": release.prerelease,
        "created_at": release.created_at,
        "published_at": release.published_at,
    }


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _releases_json(releases: list[FakeRelease]) -> list[dict[str, Any]]:
    """Releases as GitHub lists them: newest created first."""
    ordered = sorted(releases, key=lambda r: _parse(r.created_at), reverse=True)
    return [_release_json(r) for r in ordered]


def _actor(login: str, kind: str) -> dict[str, Any]:
    return {"__typename": "Bot" if kind == "Bot" else "User", "login": login}


def _timeline_node(issue: FakeIssue) -> dict[str, Any]:
    label_events = [e for e in issue.events if e.kind in {"labeled", "unlabeled"}]
    comments = [e for e in issue.events if e.kind == "comment"]
    return {
        "number": issue.number,
        "timelineItems": {
            "pageInfo": {"hasNextPage": len(label_events) > 50},
            "nodes": [
                {
                    "__typename": "LabeledEvent" if e.kind == "labeled" else "UnlabeledEvent",
                    "createdAt": e.at,
                    "actor": _actor(e.actor, e.actor_type),
                    "label": {"name": e.label},
                }
                for e in label_events[:50]
            ],
        },
        "comments": {
            "nodes": [
                {"createdAt": c.at, "author": _actor(c.actor, c.actor_type)} for c in comments[:20]
            ]
        },
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body leave in separate writes; without TCP_NODELAY each answer waits out
    # the client's delayed ACK (about 40 ms on Linux loopback).
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        return  # keep pytest output clean; the request log is in FakeGitHub.log

    @property
    def fake(self) -> FakeGitHub:
        return self.server.fake  # type: ignore[attr-defined,no-any-return]

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def _dispatch(self, method: str) -> None:
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        query = {k: v[-1] for k, v in parse_qs(split.query).items()}
        with self.fake.lock:
            hung = any(re.search(pattern, split.path) for pattern in self.fake.hangs)
        if hung:
            with self.fake.lock:
                self.fake.log.append(LoggedRequest(method, split.path, split.query, 0, None))
            self.fake.released.wait()
            self.close_connection = True
            return
        barrier = self.fake._gated(split.path, method)
        if barrier is not None:
            # The other parties never came: answer anyway.
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait()
        with self.fake.lock:
            failure = self.fake._scripted(split.path, method)
            if failure is not None:
                self._send(failure.status, failure.body, extra=failure.headers)
            else:
                self._route(method, split.path, query, body)

    def _token(self) -> str | None:
        header = self.headers.get("Authorization") or ""
        scheme, _, value = header.partition(" ")
        return value.strip() if scheme.lower() in {"token", "bearer"} and value else None

    def _account(self) -> tuple[str | None, bool]:
        """(the login of the request's token, whether it may ask GET /user)."""
        token = self._token()
        if token is None:
            return None, False
        data = self._mount(urlsplit(self.path).path)[0]
        if token in data.accounts:
            return data.accounts[token], True
        return data.integrations.get(token, ACTIONS_BOT), False

    def _user(self) -> int:
        login, may_ask = self._account()
        if login is None:
            return self._send(401, {"message": "Requires authentication"})
        if not may_ask:
            return self._send(403, {"message": "Resource not accessible by integration"})
        kind = "Bot" if login.endswith("[bot]") else "User"
        return self._send(200, {"login": login, "type": kind})

    def _mount(self, path: str) -> tuple[Dataset, str, str]:
        """(dataset, API base, path below it) for a request path."""
        match = re.match(r"/d/([^/]+)(/.*)?$", path)
        if match and match.group(1) in self.fake.mounted:
            base = f"{self.fake.url}/d/{match.group(1)}"
            return self.fake.mounted[match.group(1)], base, match.group(2) or "/"
        return self.fake.dataset, self.fake.url, path

    def _route(self, method: str, full_path: str, query: dict[str, str], body: bytes) -> int:
        data, base, path = self._mount(full_path)
        self.data, self.base = data, base
        repo = data.repo
        if method == "POST" and path == "/graphql":
            return self._graphql(body)
        if method == "GET" and path == "/user":
            return self._user()
        repository: dict[str, Any] = {
            "full_name": repo,
            "url": f"{base}/repos/{repo}",
            "default_branch": data.default_branch,
        }
        if data.repo_issue_types_present:
            repository["issue_types"] = data.repo_issue_types
        contents = f"/repos/{repo}/contents/"
        if method == "GET" and path.startswith(contents):
            return self._contents(unquote(path[len(contents) :]))
        events = re.fullmatch(rf"/repos/{re.escape(CONFORMANCE_REPO)}/issues/(\d+)/events", path)
        if method == "GET" and events:
            return self._events(full_path, query, int(events.group(1)))
        issues = re.fullmatch(
            rf"/repos/{re.escape(repo)}/issues(?:/(\d+)(/comments)?|/comments/(\d+))?", path
        )
        if issues and (method != "GET" or issues.group(1)):
            return self._issue_route(method, issues.groups(), body, full_path, query)
        routes: dict[str, Any] = {
            f"/repos/{repo}": lambda: repository,
            f"/repos/{repo}/labels": lambda: [{"name": name} for name in data.labels],
            f"/repos/{repo}/issue-types": lambda: [{"name": name} for name in data.issue_types],
            f"/repos/{repo}/issues": lambda: self._issues(query),
            f"/repos/{CONFORMANCE_REPO}/issues": lambda: self._issues(
                query, data.conformance_issues, CONFORMANCE_REPO
            ),
            f"/repos/{repo}/releases": lambda: _releases_json(data.releases),
            f"/repos/{SPEC_REPO}/releases": lambda: _releases_json(data.spec_releases),
            f"/repos/{repo}/git/trees/{data.default_branch}": lambda: {
                "sha": "abc",
                "truncated": False,
                "tree": [{"path": p, "type": "blob"} for p in data.tree]
                + [{"path": d, "type": "tree"} for d in {p.rpartition("/")[0] for p in data.tree}],
            },
        }
        if method != "GET" or path not in routes:
            return self._send(404, {"message": "Not Found"})
        payload = self.fake._reshaped(path, routes[path]())
        if isinstance(payload, list):
            return self._paginated(full_path, query, payload)
        return self._send(200, payload)

    def _issue_route(
        self,
        method: str,
        groups: tuple[str | None, ...],
        body: bytes,
        full_path: str,
        query: dict[str, str],
    ) -> int:
        """Issues and comments: create, get, edit, list and add comments, edit a comment."""
        number, comments, comment_id = groups
        if method != "GET" and not self.headers.get("Authorization"):
            return self._send(401, {"message": "Requires authentication"})
        try:
            data = json.loads(body) if body else {}
        except ValueError:
            return self._send(400, {"message": "Problems parsing JSON"})
        repo, now = self.data.repo, self.fake.now
        if not isinstance(data, dict):
            return self._send(400, {"message": "Problems parsing JSON"})
        text = data.get("body")
        if isinstance(text, str) and len(text) > MAX_BODY:
            return self._send(
                422,
                {
                    "message": "Validation Failed",
                    "errors": [
                        {
                            "resource": "Issue" if comments is None else "IssueComment",
                            "code": "custom",
                            "field": "body",
                            "message": f"body is too long (maximum is {MAX_BODY} characters)",
                        }
                    ],
                },
            )
        login = self._account()[0] or ACTIONS_BOT
        kind = "Bot" if login.endswith("[bot]") else "User"
        with self.fake.lock:
            issues = self.data.issues
            if number is None and comment_id is None:  # POST …/issues
                created = FakeIssue(
                    number=max((i.number for i in issues), default=0) + 1,
                    title=str(data.get("title", "")),
                    created_at=now,
                    author=login,
                    author_type=kind,
                    body=data.get("body"),
                )
                issues.append(created)
                return self._send(
                    201, self.fake._reshaped(full_path, _issue_json(created, self.base, repo))
                )
            if comment_id is not None:  # PATCH …/issues/comments/ID
                at = next(
                    (k for k, c in enumerate(self.data.comments) if c.id == int(comment_id)), None
                )
                if at is None or method != "PATCH":
                    return self._send(404, {"message": "Not Found"})
                edited = dataclasses.replace(
                    self.data.comments[at], body=str(data.get("body", "")), updated_at=now
                )
                self.data.comments[at] = edited
                return self._send(
                    200, self.fake._reshaped(full_path, _comment_json(edited, self.base, repo))
                )
            at = next((k for k, i in enumerate(issues) if i.number == int(number or 0)), None)
            if at is None:
                return self._send(404, {"message": "Not Found"})
            issue = issues[at]
            if comments:
                if method == "GET":
                    listed = [
                        _comment_json(c, self.base, repo)
                        for c in self.data.comments
                        if c.issue == issue.number
                    ]
                    return self._paginated(full_path, query, self.fake._reshaped(full_path, listed))
                added = FakeComment(
                    id=len(self.data.comments) + 1001,
                    issue=issue.number,
                    body=str(data.get("body", "")),
                    created_at=now,
                    updated_at=now,
                    author=login,
                    author_type=kind,
                )
                self.data.comments.append(added)
                issues[at] = dataclasses.replace(
                    issue, events=(*issue.events, FakeEvent("comment", now, added.author, kind))
                )
                return self._send(
                    201, self.fake._reshaped(full_path, _comment_json(added, self.base, repo))
                )
            if method == "PATCH":
                changes: dict[str, Any] = {}
                for key in ("title", "body", "state_reason"):
                    if key in data:
                        changes[key] = data[key]
                if data.get("state") == "closed" and issue.closed_at is None:
                    changes["closed_at"] = now
                elif data.get("state") == "open":
                    changes["closed_at"] = None
                issue = issues[at] = dataclasses.replace(issue, **changes)
            return self._send(
                200, self.fake._reshaped(full_path, _issue_json(issue, self.base, repo))
            )

    def _contents(self, path: str) -> int:
        tree = self.data.tree
        if path in tree:
            return self._send(200, {"type": "file", "path": path, "encoding": "base64"})
        if any(p.startswith(f"{path}/") for p in tree):
            return self._send(
                200, [{"type": "file", "path": p} for p in tree if p.startswith(path)]
            )
        return self._send(404, {"message": "Not Found"})

    def _events(self, path: str, query: dict[str, str], number: int) -> int:
        """An issue's REST event list (`labeled`, `unlabeled`, `closed`, `reopened`), oldest
        first and paginated, as GitHub answers `GET /repos/R/issues/N/events`."""
        issue = next((i for i in self.data.conformance_issues if i.number == number), None)
        if issue is None:
            return self._send(404, {"message": "Not Found"})
        items = []
        for event in sorted(issue.events, key=lambda e: e.at):
            if event.kind not in {"labeled", "unlabeled", "closed", "reopened"}:
                continue
            item: dict[str, Any] = {
                "event": event.kind,
                "created_at": event.at,
                "actor": {"login": event.actor, "type": event.actor_type},
            }
            if event.kind in {"labeled", "unlabeled"}:
                item["label"] = {"name": event.label, "color": "ededed"}
            items.append(item)
        return self._paginated(path, query, items)

    def _issues(
        self,
        query: dict[str, str],
        source: list[FakeIssue] | None = None,
        repo: str | None = None,
    ) -> list[dict[str, Any]]:
        """GitHub's issue listing: `state` (default open), `labels` (all of them, any case),
        `since` (updated at or after), `sort` (created or updated) and `direction`."""
        state = query.get("state", "open")
        wanted = [name.strip().lower() for name in query.get("labels", "").split(",") if name]
        since = _parse(query["since"]) if "since" in query else None
        sort = "updated_at" if query.get("sort") == "updated" else "created_at"
        issues = [
            i
            for i in (self.data.issues if source is None else source)
            if state in {"all", "closed" if i.closed_at else "open"}
            and all(name in {label.lower() for label in i.labels} for name in wanted)
            and (since is None or _parse(i.updated_at) >= since)
        ]
        issues.sort(key=lambda i: (_parse(getattr(i, sort)), i.number))
        if query.get("direction", "desc") == "desc":
            issues.reverse()
        return [_issue_json(i, self.base, repo or self.data.repo) for i in issues]

    def _paginated(self, path: str, query: dict[str, str], items: list[Any]) -> int:
        per_page = int(query.get("per_page", "30"))
        page = int(query.get("page", "1"))
        chunk = items[(page - 1) * per_page : page * per_page]
        last = max(1, -(-len(items) // per_page))
        links = []
        if page < last:
            links.append(
                f'<{self.fake.url}{path}?{urlencode({**query, "page": page + 1})}>; rel="next"'
            )
            links.append(
                f'<{self.fake.url}{path}?{urlencode({**query, "page": last})}>; rel="last"'
            )
        return self._send(200, chunk, extra={"Link": ", ".join(links)} if links else {})

    def _graphql(self, body: bytes) -> int:
        if not self.headers.get("Authorization"):
            return self._send(401, {"message": "This endpoint requires you to be authenticated."})
        request = json.loads(body)
        ids = request.get("variables", {}).get("ids", [])
        by_id = {f"I_{i.number}": i for i in self.data.issues}
        nodes = [_timeline_node(by_id[i]) if i in by_id else None for i in ids]
        payload = self.fake._reshaped("/graphql", {"data": {"nodes": nodes}})
        return self._send(200, payload, conditional=False)

    def _send(
        self,
        status: int,
        payload: Any,
        *,
        extra: dict[str, str] | None = None,
        conditional: bool = True,
    ) -> int:
        body = json.dumps(payload, sort_keys=True).encode()
        etag = f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            # Each rate-limit header exactly once: duplicates are comma-joined and break
            # PyGithub's int parsing.
            "X-RateLimit-Limit": "5000",
            "X-RateLimit-Remaining": "4999",
            "X-RateLimit-Reset": str(RATE_RESET),
        }
        headers.update(extra or {})
        if status == 200 and conditional:
            headers["ETag"] = etag
            if self.headers.get("If-None-Match") == etag:
                status, body = 304, b""
        # Logged before the answer leaves: a client that has its answer finds it in the log
        # (logging after the write raced a test reading the log on a loaded machine).
        split = urlsplit(self.path)
        with self.fake.lock:
            self.fake.log.append(
                LoggedRequest(
                    self.command,
                    split.path,
                    split.query,
                    status,
                    self.headers.get("Authorization"),
                    self._account()[0],
                )
            )
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)
        return status
