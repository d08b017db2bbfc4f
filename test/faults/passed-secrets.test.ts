// A secret the configuration passes to a server under a name that does not look secret
// (`DB_PASS`) is redacted everywhere: the demo's /api/config (server errors shown as tooltips),
// a tool result quoting a crashed server's stderr, and the server's log file. The page never
// shows an absolute path of this machine.
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageHeaders } from '../demo/demo-harness.js';
import { repoRoot } from '../support/shared-assets.js';
import { filesUnder } from './run-child.js';
import { dbPassword, useLeakyDemo } from './leaky-demo.js';

const leaky = useLeakyDemo();

describe('values passed to servers are secrets, whatever their name', () => {
  it('/api/config: the failed server error is shown, the password masked, no machine path', async () => {
    const text = await (await fetch(`${leaky().url}api/config`)).text();
    const config = JSON.parse(text) as { servers: Array<{ name: string; state: string; error?: string }> };
    const failed = config.servers.find((server) => server.name === 'leaky-start');
    expect(failed?.error).toMatch(/password \[REDACTED\]/);
    expect(text).not.toContain(dbPassword);
    expect(text).not.toContain(repoRoot);
    expect(text).not.toContain(os.homedir());
  });

  it('a tool result quoting the crashed server stderr, and the server log file, carry no password', async () => {
    const post = (route: string, body: unknown) =>
      fetch(`${leaky().url}${route}`, { method: 'POST', headers: pageHeaders(leaky().url), body: JSON.stringify(body) });
    const session = ((await (await post('api/sessions', {})).json()) as { id: string }).id;
    const text = await (await post('api/tools/call', { sessionId: session, tool: 'leaky/crash', arguments: {} })).text();
    expect(text).toMatch(/password \[REDACTED\]/);
    expect(text).not.toContain(dbPassword);
    expect(text).not.toContain(repoRoot);
    const logs = filesUnder(leaky().logDir);
    expect(logs.length).toBeGreaterThan(0);
    for (const file of logs) expect(readFileSync(file, 'utf8'), file).not.toContain(dbPassword);
    expect(logs.map((file) => readFileSync(file, 'utf8')).join('\n')).toMatch(/password \[REDACTED\]/);
  });
});
