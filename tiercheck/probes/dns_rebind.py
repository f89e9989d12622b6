"""dns-rebind: a request to 127.0.0.1 that names a foreign Host, and no Origin, is refused.

The pinned harness's `dns-rebinding-protection` scenario sends a foreign Host *and* a foreign
Origin in one request (`Host: evil.example.com`, `Origin: http://evil.example.com`) and passes
when that request gets a 4xx, so a server that validates only Origin passes it. This probe sends
the foreign Host with no Origin, which only Host validation can refuse. When that is served, it
sends the harness's pair as well and says which of the two the server refused, so a warning
here beside a passing scenario reads as what it is: Origin is checked, Host is not.
"""

from __future__ import annotations

from tiercheck.probes._common import FOREIGN, answered, listing, shown
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]

#: The harness's name for the scenario that checks Host/Origin validation.
SCENARIO = "dns-rebinding-protection"


def check(ctx: ProbeContext) -> Finding:
    """List tools with `Host: evil.example` and no Origin; when that is served, again with the
    foreign Origin the harness adds, to tell the two validations apart."""
    wire = ctx.wire()
    _, headers, reply = listing(wire, {"Host": FOREIGN}, drop=("Origin",))
    evidence = shown("tools/list", headers, ("Host", "Origin"), reply)
    if not answered(reply):
        if 400 <= reply.status < 500:
            return ok(f"a foreign Host (no Origin) was refused with {reply.status}", evidence)
        return broken(f"a foreign Host got {reply.status}, not a 4xx refusal", evidence)
    both = {"Host": FOREIGN, "Origin": f"http://{FOREIGN}"}
    _, paired_headers, paired = listing(wire, both)
    paired_evidence = shown("tools/list", paired_headers, ("Host", "Origin"), paired)
    served = f"Host {FOREIGN} with no Origin was served"
    if 400 <= paired.status < 500:
        summary = (
            f"{served} (Host is not validated); with Origin http://{FOREIGN} too it got "
            f"{paired.status} (Origin is). The harness's {SCENARIO} sends both headers and "
            f"passes on that {paired.status}; this probe sends the Host alone"
        )
    else:
        summary = (
            f"{served}, and with Origin http://{FOREIGN} too it got {paired.status}: neither "
            f"header is validated (the harness's {SCENARIO} sends both and wants a 4xx)"
        )
    return broken(summary, evidence, paired_evidence)


PROBE = Probe(
    name="dns-rebind",
    title="a foreign Host header (with no Origin) is refused",
    level="SHOULD",
    spec=(
        "Servers MUST validate the Origin header on all incoming connections to prevent DNS "
        "rebinding attacks (basic/transports, Security Warning). No sentence names the Host "
        "header, so a served foreign Host is a WARN. The pinned harness's "
        "dns-rebinding-protection scenario is not this check: it sends a foreign Host and a "
        "foreign Origin in one request and passes when either is refused, where this probe "
        "sends the foreign Host with no Origin, which only Host validation refuses "
        "(security_best_practices, Local MCP Server Compromise)."
    ),
    fix=(
        "Refuse requests whose Host is not the address the server listens on (127.0.0.1:PORT, "
        "localhost:PORT) with a 4xx, before dispatching, whether or not they carry an Origin."
    ),
    check=check,
)
