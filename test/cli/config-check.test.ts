// `m3 config check` must not claim what does not exist: every switch it lists is read by some
// code (the M3_MOCK_* switches drive the fallback layer, test/cli/fallback-commands.test.ts
// checks what it says about it), a bad value is refused, and M3_EXECUTOR_WORKERS, which nothing
// read, is gone. The command runs in this process (test/support/m3-in-process.ts: the CLI's
// program, its printing and exit status).
import { describe, expect, it } from 'vitest';
import { runM3InProcess } from '../support/m3-in-process.js';

const m3 = (env: NodeJS.ProcessEnv = {}) => runM3InProcess(['config', 'check'], env);

describe('m3 config check', () => {
  it('lists the fallback switches with what they do and no dead switch', async () => {
    const result = await m3();
    expect(result.code, result.stderr).toBe(0);
    for (const name of ['M3_MOCK_FALLBACK', 'M3_MOCK_LLM', 'M3_MOCK_LLM_MODEL', 'M3_MOCK_MARK_INLINE', 'M3_MOCK_RECORD', 'M3_MOCK_ALLOW', 'M3_MOCK_DIR']) {
      expect(result.stdout).toMatch(new RegExp(`${name} +\\S+ +\\S`));
    }
    expect(result.stdout).not.toContain('not implemented');
    expect(result.stdout).not.toContain('M3_EXECUTOR_WORKERS');
  }, 60_000);

  it('still refuses a bad value of a fallback switch', async () => {
    const result = await m3({ M3_MOCK_FALLBACK: 'perhaps' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('M3_MOCK_FALLBACK="perhaps": expected one of');
  }, 60_000);
});
