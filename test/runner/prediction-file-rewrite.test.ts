// The prediction file holds only records not yet written; a rewrite copies the others' bytes from
// the file it replaces. Whatever the order of puts (new ids, ids put again, puts while a scheduled
// write runs), sync and async rewrites, the file must be exactly what serialising the whole array
// writes. Real files in a temp folder; records large enough to cross the copy's chunk size.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFloat, stringifyKeepingFloats } from '../../src/core/json-numbers.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import type { PredictionRecord } from '../../src/tasks/schemas.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-prediction-rewrite-'));

function record(id: string, version: number, replyChars = 20): PredictionRecord {
  return {
    id,
    question: `question ${id} é 中 "quoted"\n`,
    steps: [{ step: 1, calls: [{ name: 'math/add', arguments: { firstNumber: new JsonFloat(version), secondNumber: version } }] }],
    final_reply: `v${version} ${'x'.repeat(replyChars)}`,
  } as unknown as PredictionRecord;
}

/** A small seeded generator, so a failure names a sequence that can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const expectedText = (expected: Map<string, PredictionRecord>) => `${stringifyKeepingFloats([...expected.values()], 2)}\n`;

describe('rewriting the prediction file from the file it replaces', () => {
  for (const seed of [1, 7, 42, 2026]) {
    it(`matches the whole array after a random sequence of puts and rewrites (seed ${seed})`, async () => {
      const next = random(seed);
      const file = new PredictionFile(path.join(dir, `random-${seed}.json`));
      const expected = new Map<string, PredictionRecord>();
      let version = 0;
      for (let step = 0; step < 300; step += 1) {
        const roll = next();
        if (roll < 0.55 || expected.size === 0) {
          const id = `t${expected.size}`;
          const item = record(id, (version += 1), next() < 0.05 ? 300_000 : Math.floor(next() * 400));
          expected.set(id, item);
          file.put(item);
        } else if (roll < 0.75) {
          const id = `t${Math.floor(next() * expected.size)}`;
          const item = record(id, (version += 1), Math.floor(next() * 400));
          expected.set(id, item);
          file.put(item);
        } else if (roll < 0.9) {
          file.saveSoon(); // puts that follow land while this write runs
        } else {
          // A rewrite after the last put, scheduled (joining a write in flight) or synchronous.
          const scheduled = next() < 0.5;
          if (scheduled) file.saveSoon();
          await file.flush();
          if (!scheduled) file.save();
          expect(readFileSync(file.file, 'utf8')).toBe(expectedText(expected));
        }
      }
      await file.flush();
      file.save();
      expect(readFileSync(file.file, 'utf8')).toBe(expectedText(expected));
      expect(stringifyKeepingFloats(file.values())).toBe(stringifyKeepingFloats([...expected.values()]));
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    });
  }

  it('keeps what it wrote on disk, not in memory: a same-length edit of the file is noticed', () => {
    const file = new PredictionFile(path.join(dir, 'on-disk.json'));
    file.put(record('a', 1));
    file.put(record('b', 2));
    file.save();
    expect(file.values().map((item) => item.final_reply)).toEqual([record('a', 1).final_reply, record('b', 2).final_reply]);
    const text = readFileSync(file.file, 'utf8');
    // Same length, different reply: only reading the file back can see it.
    writeFileSync(file.file, text.replace('"v1 ', '"w1 '));
    utimesSync(file.file, new Date(), new Date(Date.now() + 5_000));
    expect(() => file.values()).toThrowError(/on-disk\.json changed since this process last wrote it \(\d+ bytes, modified .*; expected \d+ bytes, modified /);
    file.put(record('c', 3));
    expect(() => file.save()).toThrowError(/changed since this process last wrote it/);
  });

  it('refuses to rewrite a file changed since it last wrote it, and leaves that file alone', async () => {
    const file = new PredictionFile(path.join(dir, 'changed.json'));
    file.put(record('a', 1));
    file.save();
    appendFileSync(file.file, ' ');
    const changed = readFileSync(file.file, 'utf8');
    file.put(record('b', 2));
    expect(() => file.save()).toThrowError(
      /changed\.json changed since this process last wrote it \(\d+ bytes, modified [^;]+; expected \d+ bytes, modified .*--resume/,
    );
    file.saveSoon();
    await expect(file.flush()).rejects.toThrowError(/changed since this process last wrote it/);
    expect(() => file.values()).toThrowError(/changed since this process last wrote it/);
    expect(readFileSync(file.file, 'utf8')).toBe(changed);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('does not end the run when a scheduled rewrite fails: flush() reports it, a later success clears it', async () => {
    const target = path.join(dir, 'blocked.json');
    // A non-empty folder where the file should be: the rename onto it fails.
    mkdirSync(path.join(target, 'inside'), { recursive: true });
    const file = new PredictionFile(target);
    file.put(record('a', 1));
    file.saveSoon();
    // Nobody awaits the write while it fails (as in a run): that must not be an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(file.flush()).rejects.toThrowError(/blocked\.json/);
    await file.flush(); // reported once
    file.saveSoon();
    await new Promise((resolve) => setTimeout(resolve, 200));
    rmSync(target, { recursive: true });
    file.put(record('b', 2));
    file.saveSoon();
    await file.flush();
    expect(readFileSync(target, 'utf8')).toBe(`${stringifyKeepingFloats([record('a', 1), record('b', 2)], 2)}\n`);
  });

  it('refuses a sync save or values() while a scheduled write runs', async () => {
    const file = new PredictionFile(path.join(dir, 'busy.json'));
    file.put(record('a', 1));
    file.saveSoon();
    expect(() => file.save()).toThrowError(/await flush\(\) first/);
    expect(() => file.values()).toThrowError(/await flush\(\) first/);
    await file.flush();
    expect(file.values().map((item) => item.id)).toEqual(['a']);
  });

  it('writes [] after clear(), and records put after it from their text', () => {
    const file = new PredictionFile(path.join(dir, 'cleared.json'));
    file.put(record('a', 1));
    file.save();
    file.clear();
    file.save();
    expect(readFileSync(file.file, 'utf8')).toBe('[]\n');
    file.put(record('b', 2));
    file.save();
    expect(readFileSync(file.file, 'utf8')).toBe(`${stringifyKeepingFloats([record('b', 2)], 2)}\n`);
  });
});
