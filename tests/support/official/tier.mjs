// The pinned bundle's own tier function, applied to checks read from stdin.
//
// The bundle does not export computeTier, and with --skip-conformance it only ever sees skipped
// legs. To ask it about legs at 100% we take the function's source out of dist/index.js as it
// is (found by its first statement, the server-leg rule) and evaluate it unchanged.
//
// Usage: node tier.mjs BUNDLE < [{checks}...] > [{tier, tier1_blockers, tier2_met}...]
import { readFileSync } from "node:fs";

const source = readFileSync(process.argv[2], "utf-8");
const start = source.search(
  /function \w+\(e\)\{let t=\[\];e\.conformance\.status===`skipped`\?t\.push\(`server_conformance \(skipped\)`\)/,
);
if (start < 0) throw new Error("tier.mjs: the bundle's tier function was not found");
let depth = 0;
let end = source.indexOf("{", start);
for (; end < source.length; end++) {
  if (source[end] === "{") depth++;
  else if (source[end] === "}" && --depth === 0) break;
}
const computeTier = new Function(`return (${source.slice(start, end + 1)})`)();

const input = JSON.parse(readFileSync(0, "utf-8"));
const full = { status: "pass", pass_rate: 1, passed: 1, failed: 0, total: 1, details: [] };
const answers = input.map((checks) => {
  const { tier, tier1_blockers, tier2_met } = computeTier({
    ...checks,
    conformance: full,
    client_conformance: full,
  });
  return { tier, tier1_blockers, tier2_met };
});
process.stdout.write(JSON.stringify(answers));
