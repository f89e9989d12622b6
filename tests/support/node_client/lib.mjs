// What client.mjs does, in a module of its own so that the compile cache holds more than one.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` with its modification time (ns), or null without a cache. */
export function listCache(dir) {
    if (!dir) {
        return null;
    }
    const files = {};
    const walk = (folder, prefix) => {
        let entries;
        try {
            entries = readdirSync(folder, { withFileTypes: true });
        } catch {
            return;
        }
        for (const entry of entries) {
            const path = join(folder, entry.name);
            if (entry.isDirectory()) {
                walk(path, prefix + entry.name + '/');
            } else {
                files[prefix + entry.name] = String(statSync(path, { bigint: true }).mtimeNs);
            }
        }
    };
    walk(dir, '');
    return files;
}

async function post(url, body, session) {
    const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
    };
    if (session) {
        headers['mcp-session-id'] = session;
    }
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    return { response, text };
}

/** The `initialize` scenario: initialize, then notifications/initialized. */
export async function initialize(url) {
    const { response } = await post(url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'tiercheck-node-test-client', version: '1.0.0' },
        },
    });
    if (!response.ok) {
        throw new Error(`initialize answered ${response.status}`);
    }
    const session = response.headers.get('mcp-session-id');
    await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
}
