// replay:gt keeps every GT number's JSON text: the GT writes `2.0` and `40.50`, Python reads
// floats and the reference serialises them as `2.0` and `40.5`; the oracle used to send the
// parsed value (`2`), so its recorded call, and its similarity to the GT, differed. An
// `m3 run --model replay:gt` (in this process: test/support/m3-in-process.ts) against the math server; the prediction file must say `2.0`, and
// the step evaluator's serialisation of each recorded call must equal the GT's.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseLossless } from 'lossless-json';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { serializeArguments } from '../../../src/eval/step/serialize.js';
import { filesUnder, taskFolder } from '../../faults/run-child.js';
import { runM3InProcess } from '../../support/m3-in-process.js';

const gtText = `[{"id": "f1", "image": "f1.png", "type": "arith", "question": "What is 2.0 + 40.50?",
  "steps": [{"step": 1, "calls": [{"name": "math/add", "arguments": {"firstNumber": 2.0, "secondNumber": 40.50}}]},
            {"step": 2, "calls": [{"name": "math/multiply", "arguments": {"firstNumber": 1e1, "SecondNumber": 3}}]}],
  "final_reply": "42.5"}]`;

type Call = { name: string; arguments: unknown };

describe('replay:gt and the number text of the GT', () => {
  it('records 2.0 as 2.0, so its calls serialise exactly as the GT calls do', async () => {
    const folder = taskFolder('replay-floats', [{ id: 'f1', image: 'f1.png' }]);
    await sharp({ create: { width: 32, height: 32, channels: 3, background: '#888' } })
      .png()
      .toFile(path.join(folder.dir, 'f1.png'));
    const gtFile = path.join(folder.dir, 'gt.json');
    writeFileSync(gtFile, gtText);
    const run = await runM3InProcess(['run', '--model', 'replay:gt', ...folder.args, '--gt', gtFile], { M3_WORKSPACE_MODE: 'isolated' });
    expect(run.code, run.stderr).toBe(0);
    const predictionFile = filesUnder(folder.results).find((file) => file.endsWith('_test_mcp_fuzzy.json'));
    expect(predictionFile, filesUnder(folder.results).join('\n')).toBeDefined();
    const text = readFileSync(predictionFile as string, 'utf8');
    expect(text).toMatch(/"firstNumber": 2\.0,/);
    expect(text).toMatch(/"secondNumber": 40\.5\b/);
    expect(text).toMatch(/"firstNumber": 10\.0,/);

    const calls = (text: string) =>
      (parseLossless(text) as Array<{ steps: Array<{ calls: Call[] }> }>)[0]!.steps.flatMap((step) =>
        step.calls.map((call) => serializeArguments(call.arguments)),
      );
    expect(calls(text)).toEqual(calls(gtText));
  }, 180_000);
});
