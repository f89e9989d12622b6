// Loaded with `node --import` before the pinned tier-check bundle, which stays unmodified
// (or imported by `each.mjs`, which runs the bundle once per case in one process).
//
// The bundle builds its own Octokit against https://api.github.com; Octokit sends every request
// through globalThis.fetch, so rewriting that one base here points it at our fake GitHub
// (TIERCHECK_FAKE_API) without touching the bundle. Any other URL is refused: the bundle must
// reach nothing but the fake. Its checks read the clock through Date.now() and `new Date()`;
// both are fixed at TIERCHECK_FIXED_NOW so that the bundle judges at the dataset's as-of.
// `pointAt(api, now)` moves both to another case (each.mjs, between two runs of the bundle).
const GITHUB = "https://api.github.com";
let api = null;
let fixed = Number.NaN;

export function pointAt(nextApi, now) {
  const at = Date.parse(now ?? "");
  if (!nextApi || Number.isNaN(at)) {
    throw new Error("preload: set TIERCHECK_FAKE_API and TIERCHECK_FIXED_NOW");
  }
  api = nextApi;
  fixed = at;
}

if (process.env.TIERCHECK_FAKE_API !== undefined || process.env.TIERCHECK_FIXED_NOW !== undefined) {
  pointAt(process.env.TIERCHECK_FAKE_API, process.env.TIERCHECK_FIXED_NOW);
} else if (!process.argv[1]?.endsWith("each.mjs")) {
  pointAt(undefined, undefined); // before the bundle without a case (not each.mjs's): refused
}

const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith(GITHUB)) {
    return Promise.reject(new Error(`preload: refusing a request outside the fake: ${url}`));
  }
  if (api === null) {
    return Promise.reject(new Error(`preload: no fake GitHub to send ${url} to`));
  }
  return realFetch(api + url.slice(GITHUB.length), init);
};

const RealDate = Date;
class FixedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(fixed);
    else super(...args);
  }
  static now() {
    return fixed;
  }
}
globalThis.Date = FixedDate;
