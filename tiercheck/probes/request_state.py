"""request-state: a tampered `requestState` is refused.

The client holds `requestState` between the rounds of an input-required call, so what comes
back is client input. The spec makes integrity a MUST only where the state can matter
("influences authorization, resource access, or business logic") and lets a state that can do
no harm go unprotected, which a probe cannot tell from outside. So only a tool that promises an
integrity-protected state is judged: the harness's `test_input_required_result_tampered_state`
fixture (any tool named like it). Any JSON-RPC error is a refusal; the spec names no code for
it (the harness accepts "-32602 or similar"), so -32602 "Invalid or expired requestState" is
reported but not required.
"""

from __future__ import annotations

from typing import Any

from tiercheck.probes.base import Finding, Probe, ProbeContext, Skip, broken, ok
from tiercheck.probes.wire import Wire

__all__ = ["PROBE", "answer_for", "tamper"]

#: Part of the name of a tool that promises an integrity-protected state (the harness's
#: `test_input_required_result_tampered_state`).
_PROTECTED = "tampered"


def tamper(state: str) -> str:
    """`state` with one character in the middle changed."""
    i = len(state) // 2
    return state[:i] + ("A" if state[i] != "A" else "B") + state[i + 1 :]


def _dummy(schema: Any) -> Any:
    kind = schema.get("type") if isinstance(schema, dict) else None
    return {"boolean": True, "integer": 1, "number": 1, "array": []}.get(str(kind), "probe")


def answer_for(request: Any) -> dict[str, Any]:
    """A plausible client answer to one embedded input request."""
    method = request.get("method") if isinstance(request, dict) else None
    if method == "sampling/createMessage":
        content = {"type": "text", "text": "probe"}
        return {"role": "assistant", "content": content, "model": "tiercheck-probe"}
    if method == "roots/list":
        return {"roots": []}
    params = request.get("params") if isinstance(request, dict) else {}
    schema = (params or {}).get("requestedSchema") or {}
    props = schema.get("properties") if isinstance(schema, dict) else {}
    content = {k: _dummy(v) for k, v in (props or {}).items()}
    return {"action": "accept", "content": content}


def _candidates(ctx: ProbeContext) -> list[str]:
    names = [str(t["name"]) for t in ctx.tools() if "input_required" in str(t["name"])]
    if not names:
        raise Skip("no input-required fixture tool (a name with input_required) in tools/list")
    protected = sorted(n for n in names if _PROTECTED in n)
    if not protected:
        msg = (
            f"no input-required tool promises an integrity-protected requestState (a name with "
            f"{_PROTECTED!r}, like the harness's test_input_required_result_tampered_state); "
            f"the spec lets a state that can do no harm go unprotected, so tampering with "
            f"{names[0]}'s proves nothing"
        )
        raise Skip(msg)
    return protected


def _first_round(wire: Wire, names: list[str]) -> tuple[str, dict[str, Any]]:
    for name in names:
        result = wire.call("tools/call", {"name": name, "arguments": {}})
        state = result.get("requestState") if result else None
        if result and result.get("resultType") == "input_required" and state:
            return name, result
    msg = "no input-required tool returned a requestState to tamper with"
    raise Skip(msg)


def check(ctx: ProbeContext) -> Finding:
    """Round one of an input-required tool, then the retry with its state tampered."""
    names = _candidates(ctx)
    wire = ctx.wire()
    name, first = _first_round(wire, names)
    asked = first.get("inputRequests") or {}
    params = {
        "name": name,
        "arguments": {},
        "inputResponses": {key: answer_for(req) for key, req in asked.items()},
        "requestState": tamper(str(first["requestState"])),
    }
    body, reply = wire.request("tools/call", params)
    evidence = f"POST tools/call {name} (requestState with one byte changed) → {reply.evidence()}"
    answer = reply.response(body["id"]) or {}
    error = answer.get("error")
    if isinstance(error, dict):
        return ok(f"refused with {error.get('code')} {error.get('message')!r}", evidence)
    result = answer.get("result")
    if isinstance(result, dict) and result.get("resultType") == "input_required":
        return broken(
            "the tampered state was not refused (the tool asked again)", evidence, level="SHOULD"
        )
    return broken("the tampered requestState was accepted", evidence)


PROBE = Probe(
    name="request-state",
    title="a tampered requestState is refused",
    level="MUST",
    spec=(
        "If requestState influences authorization, resource access, or business logic, "
        "servers MUST protect its integrity (e.g. HMAC or AEAD) and MUST reject state that "
        "fails verification. Integrity protection MAY be omitted only when tampering can cause "
        "nothing worse than request failure. (2026-07-28 basic/patterns/mrtr, Server "
        "Requirements; judged only on a tool that promises a protected state, such as the "
        "harness's test_input_required_result_tampered_state)"
    ),
    fix=(
        "Seal requestState (an AEAD or HMAC under a server key, bound to the tool and "
        "principal) and answer any state that fails to open with a JSON-RPC error, such as "
        "-32602 'Invalid or expired requestState'."
    ),
    check=check,
    wires=("stateless",),
    needs=("http-url", "an input-required tool that promises a protected requestState"),
)
