// A result with no text block whose structured content repeats an image (as file servers'
// `read_media_file` does): the result text the model reads and the prediction records carries
// the image only as a short marker, never its base64, while the image itself still reaches the
// model as an image.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toPrediction } from '../../src/agent/to-prediction.js';
import type { ImagePart } from '../../src/core/content.js';
import type { Message } from '../../src/core/messages.js';
import type { GenerateRequest, ModelDriver } from '../../src/llm/types.js';
import { replayOneRound, useHost, testAgentOptions } from '../support/agent-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-structured-'));
const longBase64 = /[A-Za-z0-9+/]{100,}/;
const host = useHost(() => [fixtureSpec('image')]);

describe('binary payloads in structured content', () => {
  it('appear in the result text only as markers', async () => {
    const outcome = await host().callTool('image/read_media', {});
    expect(outcome.text).not.toMatch(longBase64);
    expect(outcome.text).toMatch(/^\[image: image\/png, \d+ bytes\]\n\{"content":\["\[image: image\/png, \d+ bytes\]"\],"name":"swatch.png"\}$/);
  });

  it('reach the model as an image, with a marker in the text it reads and in the prediction', async () => {
    const requests: GenerateRequest[] = [];
    const wrap = (replay: ModelDriver): ModelDriver => ({
      ...replay,
      generate: (request, opts) => (requests.push(structuredClone(request)), replay.generate(request, opts)),
    });
    const calls = [{ name: 'image/read_media', arguments: {} }];
    const trace = await replayOneRound({ id: 'S1', calls, cwd: workDir, workspace: workDir, wrap }, { host: host(), options: testAgentOptions([workDir]) });
    const result = toPrediction({ id: 'S1' }, 'q', trace).steps[0]?.calls[0]?.result;
    expect(result).not.toMatch(longBase64);
    const tool = requests[1]?.messages.find((message): message is Extract<Message, { role: 'tool' }> => message.role === 'tool');
    const parts = tool?.results[0]?.content ?? [];
    const text = parts.find((part) => part.type === 'text');
    expect(text?.type === 'text' ? text.text : '').not.toMatch(longBase64);
    expect(parts.filter((part): part is ImagePart => part.type === 'image').map((part) => [part.mediaType, part.facts?.width])).toEqual([['image/png', 48]]);
  });
});
