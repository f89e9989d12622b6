"""Real headless Chromium for the HTML tests: open a page from `file://`, read its DOM after
load, and see every URL it asked for (its network log) and what it logged (its console).

Chromium is Debian's `chromium` (`.ci/run` installs it); `CHROMIUM` is None without it, and a
test that needs it calls `require_chromium`, which skips it, saying so, or fails it under
`TIERCHECK_REQUIRE_TOOLS=1` (`support.tools`).

Each `chromium` call starts a browser for one page (a second of CPU before the page is read).
A module that reads many pages the same way opens them in one browser instead: `shared` keeps
a `Browser` for its tests, each page in a tab of its own, closed after it is read.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import psutil

from support import tools
from support.procutil import kept_group, wait_for

__all__ = [
    "CHROMIUM",
    "FLAGS",
    "INSTALL",
    "TIMEOUT_S",
    "Browser",
    "SpacedText",
    "Text",
    "assert_nothing_fetched",
    "chromium",
    "id_text",
    "open_page",
    "requests",
    "require_chromium",
    "shared",
    "shared_browser",
    "site_page",
]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: The flags that work on this kind of machine (closed network, running as root).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)
TIMEOUT_S = 180.0
INSTALL = "apt-get install chromium; .ci/run does"


def require_chromium() -> str:
    """The Chromium to run: without one the test skips, or fails under the variable."""
    return tools.require("Chromium", CHROMIUM, INSTALL)


def chromium(tmp_path: Path, *args: str, console: list[str] | None = None) -> str:
    """Run Chromium in its own process group to the end; its stdout. The group is killed on
    any way out, so no renderer or GPU helper outlives the test. With `console`, the page's
    console messages (Chromium logs them to stderr as `INFO:CONSOLE`) are appended to it."""
    binary = require_chromium()
    profile = tmp_path / f"profile-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
    logging = ("--enable-logging=stderr", "--v=0") if console is not None else ()
    proc = subprocess.Popen(
        [binary, *FLAGS, *logging, f"--user-data-dir={profile}", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if console is not None else subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=TIMEOUT_S)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == 0, f"chromium exited {proc.returncode}"
    if console is not None:
        console.extend(line for line in (err or "").splitlines() if ":CONSOLE" in line)
    return out


def requests(net_log: Path) -> list[str]:
    """Every URL the page asked for, from Chromium's network log.

    Chromium fetches things of its own too (time, updates, accounts: refused on a closed
    network); those start with the initiator "not an origin", while a page opened from
    file:// initiates with its opaque origin, "null".
    """
    data = json.loads(net_log.read_text("utf-8"))
    start_job = data["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = []
    for event in data.get("events", []):
        params = event.get("params") or {}
        if event.get("type") != start_job or "url" not in params:
            continue  # the end of a job repeats its type without the request
        if params.get("initiator") != "not an origin":
            urls.append(str(params["url"]))
    return urls


class Text(HTMLParser):
    """The DOM's text, its tags, and the text of every element that has an id."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []
        self.ids: dict[str, str] = {}
        self._open: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        ident = dict(attrs).get("id")
        self._open.append((tag, ident))
        if ident:
            self.ids[ident] = ""

    def handle_endtag(self, tag: str) -> None:
        while self._open and self._open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for _, ident in self._open:
            if ident:
                self.ids[ident] += data


class SpacedText(Text):
    """`Text` with a space between the texts of two elements, so a table row's cells read
    as words (`alpha-sdk 2025-11-25 failing`) rather than run together."""

    def handle_data(self, data: str) -> None:
        super().handle_data(data + " ")


def open_page(
    tmp_path: Path,
    page: Path,
    console: list[str] | None = None,
    parser: type[Text] = Text,
) -> tuple[Text, list[str]]:
    """Open `page` from file:// in Chromium: its DOM after load (read by `parser`) and every
    URL it asked for."""
    net_log = tmp_path / f"{page.stem}.netlog.json"
    dom = chromium(
        tmp_path, f"--log-net-log={net_log}", "--dump-dom", page.as_uri(), console=console
    )
    parsed = parser()
    parsed.feed(dom)
    return parsed, requests(net_log)


def assert_nothing_fetched(requests: list[str], page: Path) -> None:
    others = [u for u in requests if u != page.as_uri() and not u.startswith("data:")]
    assert others == [], f"{page.name} fetched {others}"


def site_page(tmp_path: Path, site: Path, path: str) -> Text:
    """A published page of `site`, opened from file:// as a reader would: it fetched nothing,
    logged nothing to the console and holds no script. Read with `SpacedText`."""
    page = site / path
    console: list[str] = []
    parsed, fetched = open_page(tmp_path, page, console, SpacedText)
    assert_nothing_fetched(fetched, page)
    assert console == []
    assert "script" not in parsed.tags
    return parsed


def id_text(parsed: Text, ident: str) -> str:
    """The text of the element with id `ident`, its white space collapsed."""
    return " ".join(parsed.ids[ident].split())


# --- one browser for many pages ---------------------------------------------------------------

#: Chromium's DevTools protocol on its pipe: commands in on fd 3, answers out on fd 4, each
#: message JSON ended by a NUL. The shell hands our stdin and stdout to those descriptors.
_ON_PIPE = 'exec "$@" 3<&0 4>&1 0</dev/null 1>/dev/null'
#: Chromium keeps a spare renderer warm for the next tab; a tab closed leaves it behind, one
#: process more on every page.
_NO_SPARE = "--disable-features=SpareRendererForSitePerProcess"


class Browser:
    """One headless Chromium (the flags of `chromium`, in its own process group) driven
    through its DevTools protocol on a pipe: `dom_when` opens a page in a tab of its own and
    reads its DOM once an element is there. `close` kills the whole group."""

    def __init__(self, tmp_path: Path) -> None:
        binary = require_chromium()
        profile = tmp_path / f"profile-{uuid.uuid4().hex[:8]}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
        argv = [binary, *FLAGS, _NO_SPARE, "--remote-debugging-pipe", f"--user-data-dir={profile}"]
        self._proc = subprocess.Popen(
            ["sh", "-c", _ON_PIPE, "sh", *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        self._buffer = b""
        self._next_id = 0
        self._closed = False

    @property
    def pgid(self) -> int:
        """Its process group (its own: it leads it)."""
        return self._proc.pid

    def _call(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        """Send one command; its result (events that arrive meanwhile are passed over)."""
        assert self._proc.stdin is not None
        assert self._proc.stdout is not None
        self._next_id += 1
        ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        self._proc.stdin.write(json.dumps(message).encode() + b"\0")
        self._proc.stdin.flush()
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            while b"\0" not in self._buffer:
                left = deadline - time.monotonic()
                readable, _, _ = select.select([self._proc.stdout], [], [], max(left, 0))
                assert readable, f"chromium did not answer {method} in {TIMEOUT_S:.0f} s"
                chunk = os.read(self._proc.stdout.fileno(), 1 << 16)
                assert chunk, f"chromium exited {self._proc.poll()} before answering {method}"
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\0")
            answer: dict[str, Any] = json.loads(raw)
            if answer.get("id") != ident:
                continue
            if "error" in answer:
                raise RuntimeError(f"{method}: {answer['error']}")
            result: dict[str, Any] = answer["result"]
            return result

    def dom_when(self, url: str, element_id: str) -> str:
        """The DOM of `url`, opened in a new tab, once an element with `element_id` is in it
        (as `--dump-dom` prints it: the document element's markup); fails after `TIMEOUT_S`."""
        target = self._call("Target.createTarget", {"url": url})["targetId"]
        try:
            session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})
            ask = {
                "expression": (
                    f"document.getElementById({json.dumps(element_id)}) === null ? null"
                    " : document.documentElement.outerHTML"
                ),
                "returnByValue": True,
            }
            deadline = time.monotonic() + TIMEOUT_S
            while time.monotonic() < deadline:
                try:
                    got = self._call("Runtime.evaluate", ask, session["sessionId"])
                except RuntimeError:  # between two documents (the tab's first, the page)
                    got = {}
                value = got.get("result", {}).get("value")
                if isinstance(value, str) and got.get("result", {}).get("type") == "string":
                    return value
                time.sleep(0.05)
        finally:
            self._call("Target.closeTarget", {"targetId": target})
        msg = f"{url}: no element #{element_id} after {TIMEOUT_S:.0f} s"
        raise AssertionError(msg)

    def close(self) -> None:
        """Kill its process group and wait for its leader (once: the group is ours only
        until then)."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        self._proc.wait()
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream is not None:
                stream.close()


#: The browser `shared` keeps, while it does.
_SHARED: list[Browser] = []


def shared_browser() -> Browser | None:
    """The browser a module shares (`shared`), or None outside one."""
    return _SHARED[-1] if _SHARED else None


@contextlib.contextmanager
def shared(tmp_path: Path) -> Iterator[Browser]:
    """One `Browser` for every page opened inside (for a module-scoped fixture). Its processes
    are no single test's leftovers while it lives; on the way out its group is killed, and
    none of them may be left."""
    one = Browser(tmp_path)
    with kept_group(one.pgid):
        _SHARED.append(one)
        try:
            yield one
        finally:
            _SHARED.remove(one)
            one.close()
            assert wait_for(lambda: not _group_members(one.pgid), timeout_s=10.0), (
                f"the shared browser's group {one.pgid} outlived its kill"
            )


def _group_members(pgid: int) -> list[psutil.Process]:
    """The live processes of process group `pgid`."""
    members = []
    for proc in psutil.process_iter():
        with contextlib.suppress(OSError, psutil.Error):
            if os.getpgid(proc.pid) == pgid and proc.status() != psutil.STATUS_ZOMBIE:
                members.append(proc)
    return members
