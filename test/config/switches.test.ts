import { describe, expect, it } from 'vitest';
import { parseSwitches, switchNames } from '../../src/config/switches.js';

describe('M3_* switches', () => {
  it('has the reference defaults', () => {
    const switches = parseSwitches({});
    expect(switches).toMatchObject({
      M3_TASK_TIMEOUT: 1800,
      M3_MAX_TASK_REQUEUE: 2,
      M3_TOOL_CALL_TIMEOUT: 60,
      M3_LLM_TIMEOUT: 300,
      M3_LLM_MAX_RETRIES: 1,
      M3_TOOL_RESULT_MAX_CHARS: 2000,
      M3_IMAGE_RECODE_OVER_KB: 512,
      M3_IMAGE_MAX_EDGE: 1568,
      M3_INSTRUCTION_ROLE: 'user',
      M3_WORKSPACE_MODE: 'dedup',
      M3_MERGE_PREPARE_WORK: true,
      M3_SKIP_END_STAGE: true,
      M3_KEEP_WORKSPACE: true,
      M3_LLM_STATS: false,
      M3_LLM_STATS_FLUSH_EVERY: 10,
      M3_MOCK_FALLBACK: false,
    });
    expect(switchNames).toContain('M3_MOCK_MARK_INLINE');
  });

  it('parses on/off words and numbers', () => {
    const switches = parseSwitches({ M3_SKIP_END_STAGE: '0', M3_MERGE_PREPARE_WORK: 'off', M3_TASK_TIMEOUT: '2.5', M3_WORKSPACE_MODE: 'isolated' });
    expect(switches.M3_SKIP_END_STAGE).toBe(false);
    expect(switches.M3_MERGE_PREPARE_WORK).toBe(false);
    expect(switches.M3_TASK_TIMEOUT).toBe(2.5);
    expect(switches.M3_WORKSPACE_MODE).toBe('isolated');
  });

  it('reports every bad value at once with the expected form', () => {
    expect(() => parseSwitches({ M3_TASK_TIMEOUT: 'soon', M3_WORKSPACE_MODE: 'shared', M3_SKIP_END_STAGE: 'maybe' })).toThrowError(
      /M3_TASK_TIMEOUT="soon": expected a number >= 0[\s\S]*M3_SKIP_END_STAGE="maybe": expected one of[\s\S]*M3_WORKSPACE_MODE="shared"/,
    );
  });
});
