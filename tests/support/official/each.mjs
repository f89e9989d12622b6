// The unmodified pinned bundle run once per case, all in one Node process: loading Node and the
// bundle's dependencies is most of a run, and is paid once.
//
// Usage: node each.mjs BUNDLE CASES.jsonl > [{code, stdout, stderr}...]
// Each line of CASES.jsonl is a case, {"argv": [...], "api": URL, "now": ISO}: `argv` is what follows
// `node BUNDLE` on a command line. For each case, one after the other, `preload.mjs` is pointed
// at the case's fake GitHub and clock, `process.argv` is set, and the bundle is imported afresh
// (a URL of its own for each case, so its module is evaluated again, as a new process would:
// its command line parsed and its action run, with no state of an earlier case's run). What it
// prints with console.log and console.error, and the code it exits with (process.exit, or
// process.exitCode; 0 when it sets neither), are the case's answer. Nothing else in the process
// runs meanwhile; the dependencies it imports (commander, Octokit, ...) are loaded once.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { pointAt } from "./preload.mjs";

const bundlePath = process.argv[2];
const bundle = pathToFileURL(bundlePath).href;
const cases = readFileSync(process.argv[3], "utf-8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));
const node = process.argv[0];
const real = { log: console.log, error: console.error, exit: process.exit };

// process.exit stops the bundle's action where it stands, as it would stop a process.
class Exit extends Error {}
let current = null;
process.on("unhandledRejection", (reason) => {
  if (!(reason instanceof Exit) && current !== null) current.fail(reason);
});

function runOne(entry, n) {
  return new Promise((resolve) => {
    const out = [];
    const err = [];
    const answer = (code) => ({ code, stdout: out.join(""), stderr: err.join("") });
    let done = false;
    const finish = (code) => {
      if (done) return;
      done = true;
      resolve(answer(code));
    };
    current = { fail: (reason) => { err.push(`${reason?.stack ?? reason}\n`); finish(70); } };
    console.log = (...args) => {
      out.push(`${args.join(" ")}\n`);
      // The JSON is the action's last word: wait for anything it does after (its exit code).
      setImmediate(() => setImmediate(() => finish(process.exitCode ?? 0)));
    };
    console.error = (...args) => err.push(`${args.join(" ")}\n`);
    process.exit = (code) => {
      finish(code ?? process.exitCode ?? 0);
      throw new Exit(`exit ${code}`);
    };
    process.exitCode = undefined;
    pointAt(entry.api, entry.now);
    process.argv = [node, bundlePath, ...entry.argv];
    import(`${bundle}?case=${n}`).catch((reason) => {
      if (!(reason instanceof Exit)) current.fail(reason);
    });
  });
}

const answers = [];
for (const [n, entry] of cases.entries()) {
  answers.push(await runOne(entry, n));
}
console.log = real.log;
console.error = real.error;
process.exit = real.exit;
current = null;
process.exitCode = 0;
process.stdout.write(JSON.stringify(answers));
