import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServersConfig, parseServersConfig } from '../../src/config/servers.js';
import { ConfigError } from '../../src/errors/index.js';

const root = '/repo';
const file = 'mcp_servers.json';

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('mcp_servers.json parsing', () => {
  it('accepts the reference shape, skips disabled servers and resolves relative paths', () => {
    const specs = parseServersConfig(
      {
        servers: {
          math: { command: 'node', args: ['--import', 'tsx', 'servers/math/index.ts'], env: {}, _comment: 'local' },
          off: { command: 'python', args: ['x.py'], env: {}, disabled: true },
          remote: { url: 'http://127.0.0.1:9000/mcp', callTimeoutSec: 5 },
        },
      },
      file,
      { env: {}, root },
    );
    expect(specs.map((spec) => spec.name)).toEqual(['math', 'remote']);
    expect(specs[0]?.args).toEqual(['--import', 'tsx', '/repo/servers/math/index.ts']);
    expect(specs[1]).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:9000/mcp', callTimeoutMs: 5000 });
  });

  it('interpolates ${VAR} and ${VAR:-default} from the environment', () => {
    const [spec] = parseServersConfig({ servers: { s: { command: 'node', args: ['${SCRIPT:-a.js}'], env: { TOKEN: '${MY_TOKEN}' } } } }, file, {
      env: { MY_TOKEN: 'abc' },
      root,
    });
    expect(spec?.env).toEqual({ TOKEN: 'abc' });
    expect(spec?.args).toEqual(['a.js']);
  });

  it('names the file, the JSON path and the variable for an unset variable', () => {
    const message = errorOf(() => parseServersConfig({ servers: { s: { command: 'node', env: { KEY: '${MISSING_KEY}' } } } }, file, { env: {}, root }));
    expect(message).toContain('mcp_servers.json: at $.servers.s.env.KEY');
    expect(message).toContain('MISSING_KEY');
  });

  it('names the JSON path of a wrong type', () => {
    const message = errorOf(() => parseServersConfig({ servers: { s: { command: 'node', args: 'not-a-list' } } }, file, { env: {}, root }));
    expect(message).toMatch(/mcp_servers\.json: at \$\.servers\.s\.args: /);
  });

  it('requires exactly one of command or url', () => {
    expect(errorOf(() => parseServersConfig({ servers: { s: { env: {} } } }, file, { env: {}, root }))).toContain('exactly one of "command"');
    expect(errorOf(() => parseServersConfig({ servers: { s: { command: 'x', url: 'http://a/b' } } }, file, { env: {}, root }))).toContain('$.servers.s');
  });

  it('rejects a missing servers key and bad server names', () => {
    expect(errorOf(() => parseServersConfig({ mcpServers: {} }, file, { env: {}, root }))).toContain('at $.servers');
    expect(errorOf(() => parseServersConfig({ servers: { 'bad name': { command: 'x' } } }, file, { env: {}, root }))).toContain('server names');
  });

  it('reports invalid JSON and unreadable files with the file name', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-config-'));
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{ "servers": { ');
    expect(errorOf(() => loadServersConfig(broken, { env: {}, root }))).toContain(`${broken}: not valid JSON`);
    expect(errorOf(() => loadServersConfig(path.join(dir, 'absent.json'), { env: {}, root }))).toContain('cannot read');
  });
});
