"""A real MCP server that is no conformance server, and a client command that is no conformance
client, assessed by the real `tier-check` with the real pinned harness.

The server is a small one of ours on the standard library (written by the test): Streamable
HTTP with JSON answers, `initialize`, `ping`, `tools/list` with the tools named on its command
line, `tools/call` of those, and "method not found" for the rest: an SDK's demo server, without
the harness's fixtures. The client command exits at once. Expected: each leg one diagnosis
(unmeasured, `not-a-conformance-server` / `not-a-conformance-client`) naming what is missing and
the harness's SDK integration guide, no failing scenario; and a server that has one fixture is a
conformance server with fixtures missing, scored as usual (its failures stand), the run's log
naming what it lacks. The fixture table itself is held to the pinned bundle's code.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from support.e2e import CHEAP, Run, Session, tier_check
from tiercheck.conformance.fixtures import FIXTURES, GUIDE_URL, Fixture

pytestmark = pytest.mark.integration

DEMO_SERVER = """
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOOLS = [{"name": n, "description": n, "inputSchema": {"type": "object"}} for n in sys.argv[2:]]


def answer(message):
    method, ident = message.get("method"), message.get("id")
    params = message.get("params") or {}
    if method == "initialize":
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "demo", "version": "0.1.0"},
        }
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call" and params.get("name") in sys.argv[2:]:
        result = {"content": [{"type": "text", "text": "hello"}]}
    else:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "not found"}}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
        if "id" not in message:
            self.send_response(202)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        data = json.dumps(answer(message)).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.send_response(405)
        self.send_header("content-length", "0")
        self.end_headers()

    do_DELETE = do_GET

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


def failed(detail: dict[str, object]) -> bool:
    """Whether a scenario of the JSON scorecard failed: measured, and not passed."""
    return not detail["passed"] and "unmeasured" not in detail


def assess(session: Session, sdk: Path, out: Path, *tools: str, client: bool) -> Run:
    server = shlex.join([sys.executable, "server.py"]) + " {port} " + shlex.join(tools)
    extra = ["--client-cmd", f"{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'"]
    return tier_check(
        "--sdk-path",
        str(sdk),
        "--revision",
        CHEAP,
        "--skip-build",
        "--skip-governance",
        "--probes",
        "none",
        "--no-history",
        "--server-cmd",
        server,
        "--server-url",
        "http://127.0.0.1:{port}/mcp",
        *(extra if client else []),
        "--output",
        "json",
        "--out",
        str(out),
        env=session.env(),
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sdk = tmp_path_factory.mktemp("demo-sdk")
    (sdk / "server.py").write_text(DEMO_SERVER)
    return sdk


def test_a_demo_server_and_a_client_that_exits_are_each_one_diagnosis(
    session: Session, demo: Path, tmp_path: Path
) -> None:
    run = assess(session, demo, tmp_path / "out", "echo", client=True)
    # Nothing measured: exit 3, never the 27 failures the server leg read as before.
    assert run.returncode == 3, run.explain()
    doc = run.doc
    server = doc["revisions"][CHEAP]["server"]
    assert server["state"] == "unmeasured"
    assert server["diagnosis"] == "not-a-conformance-server"
    reason = server["reason"]
    assert reason.startswith("not a conformance server: it lists none of the harness's fixtures")
    assert "tools test_simple_text, " in reason
    assert "resources test://static-text, " in reason
    assert "it lists tools echo)" in reason
    assert reason.endswith(GUIDE_URL)
    assert [d["scenario"] for d in server["details"] if failed(d)] == []
    by_name = {d["scenario"]: d for d in server["details"]}
    assert by_name["tools-call-simple-text"]["unmeasured"] == (
        "calls the fixture tool test_simple_text, which the server does not list"
    )
    assert by_name["server-initialize"]["passed"] is True
    client = doc["revisions"][CHEAP]["client"]
    assert client["state"] == "unmeasured"
    assert client["diagnosis"] == "not-a-conformance-client"
    assert client["reason"].startswith("not a conformance client: no check succeeded in any of")
    actions = [step["action"] for step in doc["remediation"]]
    assert any(
        a.startswith("Point the server leg at the SDK's conformance server") for a in actions
    )
    assert any(
        a.startswith("Point the client leg at the SDK's conformance client") for a in actions
    )
    assert "not a conformance server" in run.stderr


def test_a_server_with_one_fixture_is_scored_and_told_what_it_lacks(
    session: Session, demo: Path, tmp_path: Path
) -> None:
    run = assess(session, demo, tmp_path / "out", "echo", "test_simple_text", client=False)
    assert run.returncode == 1, run.explain()  # measured, and failing
    server = run.doc["revisions"][CHEAP]["server"]
    assert server["state"] == "measured"
    assert "diagnosis" not in server
    by_name = {d["scenario"]: d for d in server["details"]}
    assert by_name["tools-call-simple-text"]["passed"] is True
    assert failed(by_name["tools-call-image"])
    assert server["failed"] > 10
    lacks = next(line for line in run.stderr.splitlines() if "the server lacks fixtures" in line)
    assert "tools test_image_content, " in lacks
    assert "test_simple_text" not in lacks


def _scenario_code(bundle: str) -> dict[str, str]:
    """Each scenario class's code in the bundle, from its `this.name=` to the next one's."""
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"this\.name=`([^`]+)`", bundle)]
    ends = [pos for pos, _ in starts[1:]] + [len(bundle)]
    code = {}
    for (pos, name), end in zip(starts, ends, strict=True):
        # The scenario's description quotes fixtures in prose: only its code counts.
        code[name] = re.sub(r"this\.description=`(?:[^`\\]|\\.)*`", "", bundle[pos:end])
    return code


def test_the_fixture_table_is_what_the_pinned_bundles_scenarios_call(session: Session) -> None:
    code = _scenario_code(session.harness.cli_js.read_text())
    for scenario, fixtures in FIXTURES.items():
        body = code[scenario]
        called = {
            *(Fixture("tool", n) for n in re.findall(r"callTool\(\{name:`([^`]+)`", body)),
            *(Fixture("tool", n) for n in re.findall(r"`tools/call`,\{name:`([^`]+)`", body)),
            *(Fixture("prompt", n) for n in re.findall(r"`prompts/get`,\{name:`([^`]+)`", body)),
            *(Fixture("prompt", n) for n in re.findall(r"ref/prompt`,name:`([^`]+)`", body)),
            *(Fixture("resource", n) for n in re.findall(r"uri:`(test://[^`]+)`", body)),
        }
        assert {(f.kind, f.name) for f in fixtures} == {(f.kind, f.name) for f in called}, scenario
