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
otherwise the page, byte for byte.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

from support import browser, tools

__all__ = [
    "AXE_TAGS",
    "INSTALL",
    "axe_violations",
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
    done = subprocess.run(
        [java, "-cp", classpath, _VNU_MAIN, "--errors-only", "--format", "gnu", *map(str, pages)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 0 or lines, f"the checker exited {done.returncode} saying nothing"
    return lines


_CSP = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?')
_RUNNER = """
axe.run(document, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"]})
  .then(function (r) { put(r.violations); }, function (e) { put({error: String(e)}); });
function put(value) {
  var out = document.createElement("pre");
  out.id = "axe-result";
  out.textContent = JSON.stringify(value);
  document.body.appendChild(out);
}
"""


class _Result(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside = self.inside or dict(attrs).get("id") == "axe-result"

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self.inside = False


def axe_violations(tmp_path: Path, page: Path) -> list[dict[str, object]]:
    """axe-core's WCAG 2.1 A/AA violations of `page` as Chromium renders it (empty: none)."""
    axe = require_axe().read_text("utf-8")
    text = page.read_text("utf-8")
    assert _CSP.search(text), f"{page.name}: no Content-Security-Policy to set aside"
    runner = _RUNNER % json.dumps(list(AXE_TAGS))
    script = f"<script>{axe}</script><script>{runner}</script>"
    probe = page.with_name(f"{page.stem}.axe-probe.html")
    probe.write_text(_CSP.sub("", text, count=1).replace("</body>", script + "</body>"), "utf-8")
    try:
        dom = browser.chromium(
            tmp_path, "--virtual-time-budget=60000", "--dump-dom", probe.as_uri()
        )
    finally:
        probe.unlink()
    found = _Result()
    found.feed(dom)
    assert found.text, f"{page.name}: axe gave no answer"
    result = json.loads(found.text)
    assert isinstance(result, list), result
    return result
