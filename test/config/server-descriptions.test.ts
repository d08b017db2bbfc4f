// The optional `description` of a server entry, and the repo's own mcp_servers.json: every
// entry says which folder its code lives in (keys follow the reference, folders do not), and
// that folder holds the script the entry starts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServersConfig } from '../../src/config/servers.js';
import { repoRoot } from '../support/shared-assets.js';

describe('server descriptions', () => {
  it('are optional strings carried into the spec', () => {
    const [withText, without] = parseServersConfig(
      { servers: { a: { command: 'node', description: 'servers/a: does a' }, b: { command: 'node' } } },
      'servers.json',
      { env: {}, root: repoRoot },
    );
    expect(withText?.description).toBe('servers/a: does a');
    expect(without?.description).toBeUndefined();
    expect(() => parseServersConfig({ servers: { a: { command: 'node', description: 3 } } }, 'servers.json', { env: {}, root: repoRoot })).toThrow(
      /servers\.json: at \$\.servers\.a\.description: Invalid input: expected string, received number/,
    );
  });

  it('name the folder of every server in the repo configuration', () => {
    const file = path.join(repoRoot, 'mcp_servers.json');
    const specs = parseServersConfig(JSON.parse(readFileSync(file, 'utf8')), file, { env: {}, root: repoRoot });
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) {
      const folder = /^(servers\/[a-z0-9-]+):/.exec(spec.description ?? '')?.[1];
      expect(folder, `${spec.name}: description should start with its folder`).toBeDefined();
      expect(spec.args.some((arg) => arg.startsWith(path.join(repoRoot, folder ?? '-')))).toBe(true);
      expect(existsSync(path.join(repoRoot, folder ?? '-'))).toBe(true);
    }
  });
});
