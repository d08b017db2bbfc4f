// Per-task server state: one value per task id of the call context, one shared value for calls
// without a context, least recently used tasks dropped beyond the limit (never the shared one).
import { describe, expect, it } from 'vitest';
import { PerTaskState } from '../../../servers/shared/task-state.js';
import { CALL_CONTEXT_META_KEY } from '../../../src/core/tool-result-contract.js';

const extraOf = (taskId: string) => ({ _meta: { [CALL_CONTEXT_META_KEY]: { taskId, workspace: '/w' } } });

describe('PerTaskState', () => {
  it('keeps one value per task and one for calls without a context', () => {
    let created = 0;
    const state = new PerTaskState(() => ({ serial: (created += 1) }));
    expect(state.of(extraOf('a'))).toBe(state.of(extraOf('a')));
    expect(state.of(extraOf('b'))).not.toBe(state.of(extraOf('a')));
    expect(state.of(undefined)).toBe(state.of({ _meta: {} }));
    expect(created).toBe(3);
  });

  it('drops the least recently used task beyond the limit, never the shared value', () => {
    const state = new PerTaskState(() => ({}), 2);
    const shared = state.of(undefined);
    const first = state.of(extraOf('a'));
    state.of(extraOf('b'));
    expect(state.size).toBe(2);
    expect(state.of(undefined)).toBe(shared);
    expect(state.of(extraOf('a'))).not.toBe(first);
  });
});
