"""request-state: a tampered `requestState` gets -32602 "Invalid or expired requestState".

The client holds `requestState` between the rounds of an input-required call, so what comes
back is client input: one byte flipped must be refused, with the one frozen message.
"""

from __future__ import annotations

from typing import Any

from tiercheck.probes.base import Finding, Probe, ProbeContext, Skip, broken, ok
from tiercheck.probes.wire import MODERN, Wire

__all__ = ["MESSAGE", "PROBE", "answer_for", "tamper"]

MESSAGE = "Invalid or expired requestState"
#: Fixture names that say the state is integrity-protected come first.
_PREFERRED = ("tampered", "request_state", "state")


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
    return sorted(names, key=lambda n: next((i for i, w in enumerate(_PREFERRED) if w in n), 9))


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
    if not names:
        raise Skip("no input-required fixture tool (a name with input_required) in tools/list")
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
        if error.get("code") == -32602 and error.get("message") == MESSAGE:
            return ok(f"refused with -32602 {MESSAGE!r}", evidence)
        got = f"{error.get('code')} {error.get('message')!r}"
        return broken(f"refused, but with {got}", evidence, level="SHOULD")
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
        "requestState integrity is a MUST: servers MUST reject a requestState they did not "
        "issue or that was modified; the frozen error is {code: -32602, message: 'Invalid or "
        "expired requestState'}, one message for every cause. (SEP-2322)"
    ),
    fix=(
        "Seal requestState (an AEAD or HMAC under a server key, bound to the tool and "
        "principal) and answer any state that fails to open with -32602 'Invalid or expired "
        "requestState'."
    ),
    check=check,
    revisions=(MODERN,),
    needs=("http-url", "an input-required fixture tool that returns requestState"),
)
