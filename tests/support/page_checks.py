"""Checkers nobody here wrote, for the published pages: the W3C Nu HTML Checker and axe-core's
WCAG 2.1 A/AA rules run in headless Chromium.

The checker comes from Maven Central (`nu.validator:validator` and what it needs, copied by
`mvn` as tests/support/vnu/pom.xml says into `.venv/webcheck/vnu`, run here with Java), axe-core
from the npm registry (`axe-core` ships `axe.min.js`, installed into `.venv/webcheck`); `.ci/run`
installs both. A test that needs one calls `require_vnu` / `require_axe`: skipped without it,
failed under `TIERCHECK_REQUIRE_TOOLS=1` (`support.tools`). `TIERCHECK_WEBCHECK` names another
install folder (nox's sessions install into their own).

axe runs inside the page, and the pages forbid every script (their Content-Security-Policy):
`axe_violations` opens a copy of the page beside it with that one meta element left out and
axe and a runner inlined, and reads axe's answer from the DOM Chromium dumps. The page is
otherwise the page, byte for byte. `page_widths` measures a page the same way (how wide it
lays out, and what reaches past the screen's edge), and `in_page` runs any script so.

At a width, the copy is opened in a frame that wide, in a page of its own: Chromium's window
is never narrower than 500 px (`--window-size=400,900` lays a page out 500 px wide and cuts the
screenshot), while a frame is the viewport of the page in it, media queries and all, as a
phone's screen is. Inside `browser.shared` (a module's one browser) that page opens in a tab of
it, read once the answer is in its DOM; without a width, and outside one, in a browser of its
own (`--dump-dom`), as the window's size is then Chromium's default for such a browser.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from support import browser, tools

__all__ = [
    "AXE_TAGS",
    "HEIGHT",
    "INSTALL",
    "Widths",
    "axe_violations",
    "in_page",
    "page_widths",
    "require_axe",
    "require_vnu",
    "vnu_errors",
]

_DEFAULT = Path(__file__).resolve().parents[2] / ".venv" / "webcheck"


def _modules() -> Path:
    return Path(os.environ.get("TIERCHECK_WEBCHECK") or _DEFAULT) / "node_modules"


INSTALL = (
    "mvn -q -B -f tests/support/vnu/pom.xml dependency:copy-dependencies "
    "-DoutputDirectory=.venv/webcheck/vnu, npm install --prefix .venv/webcheck --no-save "
    "--ignore-scripts axe-core@4.14.1, and Java 11 or later; .ci/run does"
)
#: The checker's command-line entry point in nu.validator:validator.
_VNU_MAIN = "nu.validator.client.SimpleCommandLineValidator"
#: The JVM for one short run: only its quick compiler (the optimising one spends more CPU
#: compiling than a run of a few seconds wins back: half the checker's CPU on these pages), the
#: one-thread collector, and the deeper stack the checker's schema needs once compiled so (it
#: says so, and stops, without).
_JVM = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss16m")
#: axe's tags for WCAG 2.0 and 2.1, levels A and AA.
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")


def require_vnu() -> tuple[str, str]:
    """(java, the checker's class path): without them the test skips, or fails under the
    variable."""
    jars = Path(os.environ.get("TIERCHECK_WEBCHECK") or _DEFAULT) / "vnu"
    found = jars.is_dir() and any(jars.glob("validator-*.jar"))
    java = shutil.which("java")
    tools.require("the Nu HTML Checker (nu.validator)", str(jars) if found else None, INSTALL)
    return tools.require("Java", java, INSTALL), f"{jars}/*"


def require_axe() -> Path:
    """axe.min.js: without it the test skips, or fails under the variable."""
    browser.require_chromium()
    path = _modules() / "axe-core/axe.min.js"
    tools.require("axe-core", str(path) if path.is_file() else None, INSTALL)
    return path


def vnu_errors(pages: list[Path]) -> list[str]:
    """Every error the Nu HTML Checker finds in `pages` (one line each; empty: valid)."""
    java, classpath = require_vnu()
    command = [java, *_JVM, "-cp", classpath, _VNU_MAIN, "--errors-only", "--format", "gnu"]
    done = subprocess.run(
        [*command, *map(str, pages)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 0 or lines, f"the checker exited {done.returncode} saying nothing"
    return lines


_CSP = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?')
#: The window's height for every check that sets a width (a phone's, roughly).
HEIGHT = 900
_PUT = """
function put(value) {
  var text = JSON.stringify(value);
  if (window.parent !== window) { window.parent.postMessage(text, "*"); return; }
  var out = document.createElement("pre");
  out.id = "probe-result";
  out.textContent = text;
  document.body.appendChild(out);
}
"""
# A window no narrower than Chromium's smallest (500 px), holding the page in a frame `width`
# px wide: the frame is the page's viewport, as a phone's screen is. What the page's probe
# posts is written into this page's DOM, which Chromium dumps.
_FRAME = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>probe</title></head>
<body style="margin:0"><iframe src="%s" width="%d" height="%d" style="border:0;display:block"
title="the page"></iframe>
<script>
window.addEventListener("message", function (e) {
  var out = document.createElement("pre");
  out.id = "probe-result";
  out.textContent = e.data;
  document.body.appendChild(out);
});
</script></body></html>
"""
_AXE_RUNNER = """
axe.run(document, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"]})
  .then(function (r) { put(r.violations); }, function (e) { put({error: String(e)}); });
"""
# Measured before `put` adds its own element. `wide`: the elements reaching past the viewport's
# right edge that no box of theirs scrolls or clips (what makes the page itself scroll).
_WIDTH_RUNNER = """
var root = document.documentElement, wide = [];
function held(e) {
  for (var p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (getComputedStyle(p).overflowX !== "visible") return true;
  }
  return false;
}
document.querySelectorAll("body *").forEach(function (e) {
  if (e.getBoundingClientRect().right > root.clientWidth + 0.5 && !held(e)) {
    var cls = typeof e.className === "string" && e.className ? "." + e.className : "";
    wide.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + cls);
  }
});
put({scroll: root.scrollWidth, viewport: root.clientWidth, wide: wide.slice(0, 20)});
"""


class _Result(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside = self.inside or dict(attrs).get("id") == "probe-result"

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self.inside = False


def _probe(tmp_path: Path, page: Path, scripts: list[str], width: int | None) -> object:
    """What `scripts` (the last of them calls `put`) found in a copy of `page` beside it with
    its Content-Security-Policy left out: in Chromium's window (`width` None), or in a frame
    `width` px wide."""
    text = page.read_text("utf-8")
    assert _CSP.search(text), f"{page.name}: no Content-Security-Policy to set aside"
    inline = "".join(f"<script>{s}</script>" for s in (_PUT, *scripts))
    probe = page.with_name(f"{page.stem}.probe.html")
    probe.write_text(_CSP.sub("", text, count=1).replace("</body>", inline + "</body>"), "utf-8")
    frame = page.with_name(f"{page.stem}.probe-frame.html")
    frame.write_text(_FRAME % (probe.name, width or 0, HEIGHT), "utf-8")
    opened = probe if width is None else frame
    shared = browser.shared_browser()
    try:
        if width is not None and shared is not None:
            # The frame is the viewport, whatever the window around it: a tab of the module's
            # browser lays the page out as a browser of its own would.
            dom = shared.dom_when(opened.as_uri(), "probe-result")
        else:
            dom = browser.chromium(
                tmp_path, "--virtual-time-budget=60000", "--dump-dom", opened.as_uri()
            )
    finally:
        probe.unlink()
        frame.unlink()
    found = _Result()
    found.feed(dom)
    assert found.text, f"{page.name}: the probe gave no answer"
    return json.loads(found.text)


def axe_violations(tmp_path: Path, page: Path, width: int | None = None) -> list[dict[str, object]]:
    """axe-core's WCAG 2.1 A/AA violations of `page` as Chromium renders it in a window
    `width` px wide (None: Chromium's default), empty: none."""
    axe = require_axe().read_text("utf-8")
    result = _probe(tmp_path, page, [axe, _AXE_RUNNER % json.dumps(list(AXE_TAGS))], width)
    assert isinstance(result, list), result
    return result


def in_page(tmp_path: Path, page: Path, script: str, width: int) -> object:
    """What `script` found in `page` laid out `width` px wide: the script calls `put(value)`
    with a JSON value, which is returned."""
    browser.require_chromium()
    return _probe(tmp_path, page, [script], width)


@dataclass(frozen=True)
class Widths:
    """A page laid out in a window: the document's scroll width, the viewport's width, and the
    elements whose box reaches past the viewport's right edge (`tag#id.class`)."""

    scroll: int
    viewport: int
    wide: tuple[str, ...]

    @property
    def overflows(self) -> bool:
        """Whether the page itself scrolls sideways."""
        return self.scroll > self.viewport


def page_widths(tmp_path: Path, page: Path, width: int) -> Widths:
    """How wide `page` lays out in Chromium in a window `width` px wide."""
    browser.require_chromium()
    result = _probe(tmp_path, page, [_WIDTH_RUNNER], width)
    assert isinstance(result, dict), result
    return Widths(int(result["scroll"]), int(result["viewport"]), tuple(result["wide"]))
