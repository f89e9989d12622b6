// Loaded with `node --import` before the pinned tier-check bundle, which stays unmodified.
//
// The bundle builds its own Octokit against https://api.github.com; Octokit sends every request
// through globalThis.fetch, so rewriting that one base here points it at our fake GitHub
// (TIERCHECK_FAKE_API) without touching the bundle. Any other URL is refused: the bundle must
// reach nothing but the fake. Its checks read the clock through Date.now() and `new Date()`;
// both are fixed at TIERCHECK_FIXED_NOW so that the bundle judges at the dataset's as-of.
const GITHUB = "https://api.github.com";
const api = process.env.TIERCHECK_FAKE_API;
const fixed = Date.parse(process.env.TIERCHECK_FIXED_NOW ?? "");
if (!api || Number.isNaN(fixed)) {
  throw new Error("preload: set TIERCHECK_FAKE_API and TIERCHECK_FIXED_NOW");
}

const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith(GITHUB)) {
    return Promise.reject(new Error(`preload: refusing a request outside the fake: ${url}`));
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
