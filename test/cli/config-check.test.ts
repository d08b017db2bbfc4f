// `m3 config check` must not claim what does not exist: the M3_MOCK_* switches are parsed (a bad
// value is refused) but the fallback layer is not implemented, and M3_EXECUTOR_WORKERS, which
// nothing read, is gone.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';

const m3 = (env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'config', 'check'], { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8' });

describe('m3 config check', () => {
  it('marks the fallback switches as not implemented and lists no dead switch', () => {
    const result = m3();
    expect(result.status, result.stderr).toBe(0);
    for (const name of ['M3_MOCK_FALLBACK', 'M3_MOCK_LLM', 'M3_MOCK_LLM_MODEL', 'M3_MOCK_MARK_INLINE']) {
      expect(result.stdout).toMatch(new RegExp(`${name} +\\S+ +not implemented yet`));
    }
    expect(result.stdout).toContain('the tool-result fallback layer is not implemented yet: setting them changes nothing');
    expect(result.stdout).not.toContain('M3_EXECUTOR_WORKERS');
  }, 60_000);

  it('still refuses a bad value of a fallback switch', () => {
    const result = m3({ M3_MOCK_FALLBACK: 'perhaps' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('M3_MOCK_FALLBACK="perhaps": expected one of');
  }, 60_000);
});
