"""Real headless Chromium for the HTML tests: open a page from `file://`, read its DOM after
load, and see every URL it asked for (its network log) and what it logged (its console).

Chromium is Debian's `chromium` (`.ci/run` installs it); `CHROMIUM` is None without it, and a
test that needs it calls `require_chromium`, which skips it, saying so, or fails it under
`TIERCHECK_REQUIRE_TOOLS=1` (`support.tools`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import uuid
from html.parser import HTMLParser
from pathlib import Path

from support import tools

__all__ = [
    "CHROMIUM",
    "FLAGS",
    "INSTALL",
    "TIMEOUT_S",
    "SpacedText",
    "Text",
    "assert_nothing_fetched",
    "chromium",
    "id_text",
    "open_page",
    "requests",
    "require_chromium",
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
