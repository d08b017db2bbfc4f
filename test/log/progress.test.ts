// The progress renderers on a stream that says it is a terminal (the bar) and on one that does
// not, or under CI (plain lines, only when a line is given); the "waiting on" notes of slow tool calls.
import { describe, expect, it } from 'vitest';
import { createProgress, createTransferProgress } from '../../src/log/progress.js';
import { createWaitingOn } from '../../src/log/waiting-on.js';

function stream(isTTY: boolean): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const fake = Object.assign(Object.create(process.stderr) as NodeJS.WriteStream, {
    isTTY,
    columns: 120,
    write: (text: string) => written.push(text) > 0,
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
  });
  return { stream: fake, written };
}

describe('progress renderers', () => {
  it('draws a byte bar for transfers on a terminal, and the run bar with its counters', () => {
    const terminal = stream(true);
    const transfer = createTransferProgress('dataset', terminal.stream, {});
    transfer.update({ files: 0, filesTotal: 3, bytes: 0, bytesTotal: 3_000_000 });
    transfer.update({ files: 2, filesTotal: 3, bytes: 2_000_000, bytesTotal: 3_000_000 }, 'ignored by the bar');
    transfer.stop();
    const run = createProgress('run', terminal.stream, {});
    run.update({ total: 4, done: 1, failedModel: 0, failedInfra: 1, running: 2, tokens: 99 });
    run.stop();
    const frames = terminal.written.filter((text) => text.includes('|'));
    expect(frames.some((text) => /^dataset \[.+\] 66% \| 2\/3 files \| 2\.0 MB \/ 3\.0 MB \| ETA/.test(text))).toBe(true);
    expect(frames.some((text) => /^run \[.+\] 1\/4 \| failed 0 \| infra 1 \| running 2 \| tokens 99 \| ETA/.test(text))).toBe(true);
    expect(terminal.written.join('')).not.toContain('ignored by the bar');
  });

  it('prints plain lines when not a terminal or under CI, and nothing for updates without a line', () => {
    for (const [isTTY, env] of [
      [false, {}],
      [true, { CI: '1' }],
    ] as const) {
      const plain = stream(isTTY);
      const transfer = createTransferProgress('dataset', plain.stream, env);
      transfer.update({ files: 0, filesTotal: 2, bytes: 10, bytesTotal: 20 });
      transfer.update({ files: 1, filesTotal: 2, bytes: 20, bytesTotal: 20 }, 'downloaded images/a.png (1 kB)');
      createProgress('run', plain.stream, env).update({ total: 3, done: 2, failedModel: 0, failedInfra: 0, running: 1, tokens: 0 }, 'task 00010000 ok');
      expect(plain.written).toEqual(['[dataset] 1/2 downloaded images/a.png (1 kB)\n', '[run] 2/3 task 00010000 ok\n']);
    }
  });
});

describe('what a run is waiting on (issue 31 item 1)', () => {
  it('names a tool call once it has run past the threshold, once, with its timeout; a finished call never', () => {
    let time = 0;
    const said: string[] = [];
    const waiting = createWaitingOn({
      announce: (text) => said.push(text),
      callTimeoutMs: 60_000,
      thresholdMs: 5000,
      checkEveryMs: 3_600_000,
      now: () => time,
    });
    waiting.observe({ type: 'tool_call_start', taskId: '00020003', callId: 'c1', name: 'paper_search/download_arxiv' });
    waiting.observe({ type: 'tool_call_start', taskId: '00020004', callId: 'c2', name: 'wiki/search' });
    time = 3000;
    waiting.observe({ type: 'tool_call_end', taskId: '00020004', callId: 'c2', name: 'wiki/search' });
    waiting.check();
    expect(said).toEqual([]);
    time = 6000;
    waiting.check();
    time = 9000;
    waiting.check();
    waiting.stop();
    expect(said).toEqual(['waiting on paper_search/download_arxiv (task 00020003): real call for 6 s, timeout 60 s']);
  });

  it('the renderers show the note: a plain line, or the bar tail until the next update', () => {
    const plain = stream(false);
    const run = createProgress('run', plain.stream, {});
    run.update({ total: 3, done: 1, failedModel: 0, failedInfra: 0, running: 2, tokens: 0 });
    run.note('waiting on ocr/extract_text (task t1): real call for 5 s, timeout 60 s');
    expect(plain.written).toEqual(['[run] 1/3 waiting on ocr/extract_text (task t1): real call for 5 s, timeout 60 s\n']);
    const terminal = stream(true);
    const bar = createProgress('run', terminal.stream, {});
    bar.update({ total: 3, done: 1, failedModel: 0, failedInfra: 0, running: 2, tokens: 0 });
    bar.note('waiting on ocr/extract_text (task t1): real call for 5 s, timeout 60 s');
    bar.stop();
    expect(terminal.written.some((text) => /ETA [^|]+\| waiting on ocr\/extract_text \(task t1\)/.test(text))).toBe(true);
  });
});
