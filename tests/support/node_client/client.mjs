// A conformance client on Node for tiercheck's tests: it passes `initialize` by hand (no SDK),
// fails every other scenario, and appends what it saw of its compile cache to a record file.
//
//     node client.mjs RECORD [SERVER_URL]
//
// Run with no scenario (a warm-up), it loads its modules, records, and exits 1.
import { appendFileSync } from 'node:fs';
import { initialize, listCache } from './lib.mjs';

const [record, url] = process.argv.slice(2);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? null;
const cacheDir = process.env.NODE_COMPILE_CACHE ?? null;
appendFileSync(
    record,
    JSON.stringify({ scenario, pid: process.pid, cacheDir, files: listCache(cacheDir) }) + '\n'
);
if (scenario !== 'initialize' || !url) {
    process.exit(1);
}
await initialize(url);
process.exit(0);
