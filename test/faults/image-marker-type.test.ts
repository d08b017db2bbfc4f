// A server that labels PNG bytes `image/jpeg`: the marker in the result text names the type the
// bytes have (the type the model is sent), and says what the server claimed.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { replayOneRound, useHost, testAgentOptions } from '../support/agent-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-marker-'));
const host = useHost(() => [fixtureSpec('image')]);

describe('the image marker', () => {
  it('names the type of the bytes sent, not the server label', async () => {
    const outcome = await host().callTool('image/mislabelled', {});
    expect(outcome.text).toMatch(/^\[image: image\/png \(labelled image\/jpeg\), \d+ bytes\]$/);

    const events: AgentEvent[] = [];
    const calls = [{ name: 'image/mislabelled', arguments: {} }];
    await replayOneRound(
      { id: 'M1', calls, cwd: workDir, workspace: workDir },
      { host: host(), options: testAgentOptions([workDir]), onEvent: (event) => events.push(event) },
    );
    const end = events.find((event): event is Extract<AgentEvent, { type: 'tool_call_end' }> => event.type === 'tool_call_end');
    expect(end?.images.map((image) => image.mediaType)).toEqual(['image/png']);
    expect(end?.result).toContain('[image: image/png');
  });
});
