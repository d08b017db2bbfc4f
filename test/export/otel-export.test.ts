// The OpenTelemetry export of a stored run, received by a loopback OTLP/HTTP receiver that decodes
// the JSON bodies the SDK's exporter sends: one trace per episode, a chat span per model request
// and an execute_tool span per tool call, children of the episode's invoke_agent span, with the
// GenAI attributes and the store's times; the --otlp-file output holds the same request.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRun } from '../../src/export/run-export.js';
import { registerSecret } from '../../src/log/redact.js';
import { attributes, ms, type OtlpRequest, type OtlpSpan, otlpValue, spansOf, startReceiver } from './otlp-receiver.js';
import { lateSecret, storedRunId, t0, writeStoredRun, type StoredRun } from './stored-run.js';

function checkTraces(spans: OtlpSpan[]) {
  expect(spans).toHaveLength(7);
  const traces = new Map<string, OtlpSpan[]>();
  for (const span of spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  expect(traces.size).toBe(2);
  const byTask = new Map([...traces.values()].map((trace) => [attributes(trace.find((span) => !span.parentSpanId) as OtlpSpan)['m3bench.task.id'], trace]));
  const ok = byTask.get('T1') ?? [];
  const root = ok.find((span) => !span.parentSpanId) as OtlpSpan;
  expect(root.name).toBe('invoke_agent T1');
  expect(attributes(root)).toMatchObject({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.usage.input_tokens': 320,
    'gen_ai.usage.output_tokens': 40,
    'm3bench.run.id': storedRunId,
    'm3bench.episode.status': 'ok',
  });
  expect([ms(root.startTimeUnixNano) - t0, ms(root.endTimeUnixNano) - t0]).toEqual([0, 2200]);
  const children = ok.filter((span) => span.parentSpanId);
  expect(children.every((span) => span.parentSpanId === root.spanId)).toBe(true);
  expect(children.map((span) => span.name)).toEqual(['chat gpt-4o', 'execute_tool math/add', 'execute_tool weather/get_weather', 'chat gpt-4o']);
  const [firstChat, add, weather, secondChat] = children as [OtlpSpan, OtlpSpan, OtlpSpan, OtlpSpan];
  expect(attributes(firstChat)).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.usage.input_tokens': 120,
    'gen_ai.usage.output_tokens': 30,
    'm3bench.round': 1,
  });
  expect([ms(firstChat.startTimeUnixNano) - t0, ms(firstChat.endTimeUnixNano) - t0]).toEqual([100, 1000]);
  expect(attributes(secondChat)).toMatchObject({ 'gen_ai.usage.input_tokens': 200, 'm3bench.usage.cached_tokens': 64, 'm3bench.round': 2 });
  expect(attributes(add)).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math/add', 'gen_ai.tool.type': 'function' });
  expect(String(attributes(add)['gen_ai.tool.call.id'])).toMatch(/^m3-\d+-1-0$/);
  expect([ms(add.startTimeUnixNano) - t0, ms(add.endTimeUnixNano) - t0]).toEqual([1100, 1300]);
  expect(add.status?.code ?? 0).toBe(0);
  expect(attributes(add)['error.type']).toBeUndefined();
  expect(attributes(weather)).toMatchObject({
    'error.type': 'upstream_unavailable',
    'm3bench.fallback.tier': 'simulator',
    'm3bench.fallback.original_error': 'connection_refused',
  });
  expect(weather.status?.code).toBe(2);
  const failed = byTask.get('T2') ?? [];
  const failedRoot = failed.find((span) => !span.parentSpanId) as OtlpSpan;
  expect(attributes(failedRoot)).toMatchObject({ 'error.type': 'invalid_request', 'm3bench.episode.status': 'model_failure' });
  expect(failedRoot.status).toMatchObject({ code: 2, message: expect.stringMatching(/^bad tool schema \(request /) });
  const failedChat = failed.find((span) => span.parentSpanId === failedRoot.spanId) as OtlpSpan;
  expect(attributes(failedChat)).toMatchObject({ 'error.type': 'invalid_request', 'm3bench.attempts': 2 });
  expect(ms(failedChat.startTimeUnixNano) - t0).toBe(5100);
}

describe('m3 runs export --otlp / --otlp-file', () => {
  let run: StoredRun;
  beforeEach(() => {
    run = writeStoredRun();
  });
  afterEach(() => run.cleanup());

  it('sends one trace per episode over OTLP/HTTP JSON with GenAI attributes and parent links', async () => {
    const receiver = await startReceiver();
    try {
      const lines = await exportRun({ storeFile: run.file, runId: storedRunId, otlp: receiver.url });
      expect(lines).toEqual([`otlp: 2 trace(s), 7 span(s) of run ${storedRunId} accepted by ${receiver.url}/v1/traces`]);
      expect(receiver.paths.every((line) => line.startsWith('POST /v1/traces application/json'))).toBe(true);
      const resource = receiver.bodies[0]?.resourceSpans[0]?.resource.attributes ?? [];
      expect(Object.fromEntries(resource.map((entry) => [entry.key, otlpValue(entry.value)]))).toMatchObject({
        'service.name': 'm3bench',
        'm3bench.run.id': storedRunId,
      });
      checkTraces(spansOf(receiver.bodies));
    } finally {
      await receiver.close();
    }
  });

  it('writes the same OTLP JSON request to a file', async () => {
    const file = path.join(run.dir, 'traces.json');
    const lines = await exportRun({ storeFile: run.file, runId: storedRunId, otlpFile: file });
    expect(lines[0]).toMatch(/^otlp-file: 2 trace\(s\), 7 span\(s\) of run export-run in .*traces\.json \(\d+ bytes, OTLP JSON\)$/);
    checkTraces(spansOf([JSON.parse(readFileSync(file, 'utf8')) as OtlpRequest]));
  });

  it('masks a secret registered after the store was written', async () => {
    registerSecret(lateSecret);
    const file = path.join(run.dir, 'traces.json');
    await exportRun({ storeFile: run.file, runId: storedRunId, otlpFile: file });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('bad tool schema (request ');
    expect(text).not.toContain(lateSecret);
  });

  it('fails with the count accepted when the collector refuses', async () => {
    const receiver = await startReceiver(400);
    try {
      await expect(exportRun({ storeFile: run.file, runId: storedRunId, otlp: receiver.url })).rejects.toThrow(/0 of 7 spans accepted/);
    } finally {
      await receiver.close();
    }
  });

  it('names the run store, the run, the missing format or the bad URL', async () => {
    await expect(exportRun({ storeFile: path.join(run.dir, 'none.sqlite'), runId: storedRunId, otlpFile: 'x' })).rejects.toThrow(/no run store at/);
    await expect(exportRun({ storeFile: run.file, runId: 'nope', otlpFile: 'x' })).rejects.toThrow(/no run "nope"/);
    await expect(exportRun({ storeFile: run.file, runId: storedRunId })).rejects.toThrow(
      /pass at least one of --otlp <url>, --otlp-file <file>, --inspect <file>/,
    );
    await expect(exportRun({ storeFile: run.file, runId: storedRunId, otlp: 'ftp://127.0.0.1:4318' })).rejects.toThrow(/expected an http or https URL/);
  });
});
