// Every M3_* switch the reference defines, parsed once from the environment with defaults,
// types and a readable message for a bad value; the harness reads these names only here. Two
// kinds of M3_* variables are read elsewhere on purpose: src/log/logger.ts reads M3_LOG_LEVEL
// itself (the logger exists before any configuration is parsed), and each server process under
// servers/ reads its own (upstream URLs, limits, allowed roots: docs/servers.md), since a server
// is a separate process that does not load this module.
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import { maxTimerSeconds, timerSecondsMessage } from './timer-ms.js';

const onOff = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ['1', '0', 'on', 'off', 'true', 'false', 'yes', 'no'].includes(value), {
    message: 'expected one of 1, 0, on, off, true, false, yes, no',
  })
  .transform((value) => ['1', 'on', 'true', 'yes'].includes(value));

const nonNegativeInt = z.string().trim().regex(/^\d+$/, 'expected a whole number >= 0').transform(Number);

const nonNegativeNumber = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'expected a number >= 0')
  .transform(Number);

const autoOnOff = z.union([z.literal('auto'), onOff]);

const toolList = z
  .string()
  .trim()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine((entries) => entries.every((entry) => entry === '*' || /^[^/\s]+\/[^/\s]+$/.test(entry)), {
    message: 'expected comma-separated server/tool or server/* entries, or * for every tool',
  });

/** Seconds for a timer: 0 disables it; above the bound Node would fire it after 1 ms. */
const timeoutSeconds = nonNegativeNumber.refine((value) => value <= maxTimerSeconds, { message: timerSecondsMessage });

/** One entry per switch: its schema (on the raw string) and default. */
const switchTable = {
  M3_TASK_TIMEOUT: { schema: timeoutSeconds, fallback: '1800', help: 'wall-clock seconds per task attempt; 0 disables' },
  M3_MAX_TASK_REQUEUE: { schema: nonNegativeInt, fallback: '2', help: 'how often a failing task may be requeued' },
  M3_TOOL_CALL_TIMEOUT: { schema: timeoutSeconds, fallback: '60', help: 'seconds per MCP tool call; 0 disables' },
  M3_LLM_TIMEOUT: { schema: timeoutSeconds, fallback: '300', help: 'seconds per LLM request; 0 disables' },
  M3_LLM_MAX_RETRIES: { schema: nonNegativeInt, fallback: '1', help: 'harness retries per LLM request (SDK retries are off)' },
  M3_MERGE_PREPARE_WORK: { schema: onOff, fallback: 'on', help: 'one native tool-calling request per round' },
  M3_SKIP_END_STAGE: { schema: onOff, fallback: 'on', help: 'no separate yes/no completion request' },
  M3_TOOL_RESULT_MAX_CHARS: { schema: nonNegativeInt, fallback: '2000', help: 'truncate tool results in model history; 0 disables' },
  M3_IMAGE_POLICY: {
    schema: z.enum(['transport', 'reference']),
    fallback: 'transport',
    help: 'image payloads: transport (size and format per image and per vendor) or reference (the M3-Bench rule below)',
  },
  M3_IMAGE_RECODE_OVER_KB: { schema: nonNegativeInt, fallback: '512', help: 'reference policy: re-encode images above this size; 0 disables' },
  M3_IMAGE_MAX_EDGE: { schema: nonNegativeInt, fallback: '1568', help: 'longest edge of images sent to models (both policies); 0 disables' },
  M3_INSTRUCTION_ROLE: { schema: z.enum(['user', 'system']), fallback: 'user', help: 'role of the per-round instruction' },
  M3_WORKSPACE_MODE: { schema: z.enum(['dedup', 'isolated', 'legacy']), fallback: 'dedup', help: 'how task images are copied' },
  M3_RUN_ID: {
    schema: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]*$/, 'expected letters, digits, ".", "_" or "-"'),
    fallback: '',
    help: 'run id (default: a timestamp)',
  },
  M3_KEEP_WORKSPACE: { schema: onOff, fallback: 'on', help: 'keep per-task workspaces after the run' },
  M3_LLM_STATS: { schema: onOff, fallback: '0', help: 'collect request/token/image counters' },
  M3_LLM_STATS_FILE: { schema: z.string(), fallback: '', help: 'where the counters are written' },
  M3_LLM_STATS_FLUSH_EVERY: { schema: nonNegativeInt, fallback: '10', help: 'flush the counters every N requests' },
  M3_MOCK_FALLBACK: {
    schema: onOff,
    fallback: '0',
    help: 'tool fallback layer: serve a fixture, cached, simulated or template result when a mockable tool fails for an infrastructure reason',
  },
  M3_MOCK_LLM: { schema: onOff, fallback: '1', help: 'allow the LLM simulator tier of the fallback (0: fixture, cache and template only)' },
  M3_MOCK_LLM_MODEL: { schema: z.string().trim(), fallback: 'anthropic:claude-opus-4-5', help: 'provider:model of the LLM simulator' },
  M3_MOCK_MARK_INLINE: { schema: onOff, fallback: '0', help: 'wrap mocked payloads as {"mocked":true,"tier":...,"result":...}' },
  M3_MOCK_RECORD: {
    schema: autoOnOff,
    fallback: 'auto',
    help: 'record successful real calls of mockable tools in the cache (auto: when M3_MOCK_FALLBACK is on)',
  },
  M3_MOCK_ALLOW: {
    schema: toolList,
    fallback: '',
    help: 'extra mockable tools, comma-separated server/tool or server/*, or * for all (vision, OCR, file tools stay excluded)',
  },
  M3_MOCK_DIR: {
    schema: z.string().trim().min(1),
    fallback: 'tools/mock_runtime',
    help: 'fallback runtime folder: fixtures/, cache/, logs/ (relative to the repo)',
  },
  M3_ALLOWED_ROOTS: { schema: z.string(), fallback: '', help: 'extra folders (path-delimiter separated) the local servers may read and write, besides media/' },
  M3_IMAGE_DIR: { schema: z.string(), fallback: 'media', help: 'task image root used by scripts' },
  M3_ASSET_MIRROR: { schema: z.string(), fallback: '', help: 'offline mirror directory for assets' },
  M3_NETWORK_GUARD: {
    schema: z.enum(['off', 'loopback']),
    fallback: 'off',
    help: 'loopback: our web-API servers refuse every non-loopback host at once (nothing leaves the machine; the test suite sets it); offline runs do not need it',
  },
} as const;

type SwitchName = keyof typeof switchTable;
export type Switches = { [K in SwitchName]: z.output<(typeof switchTable)[K]['schema']> };

/** @internal Exported for its tests. */
export const switchNames = Object.keys(switchTable) as SwitchName[];

export interface SwitchDescription {
  name: string;
  fallback: string;
  help: string;
}

export function describeSwitches(): SwitchDescription[] {
  return switchNames.map((name) => {
    const entry: { fallback: string; help: string } = switchTable[name];
    return { name, fallback: entry.fallback, help: entry.help };
  });
}

/** Parses all switches; collects every bad value into one error so users fix them in one go. */
export function parseSwitches(env: Record<string, string | undefined>): Switches {
  const result: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of switchNames) {
    const entry = switchTable[name];
    const raw = env[name];
    const text = raw === undefined || raw.trim() === '' ? entry.fallback : raw;
    const parsed = (entry.schema as z.ZodType).safeParse(text);
    if (parsed.success) {
      result[name] = parsed.data;
    } else {
      const reason = parsed.error.issues.map((issue) => issue.message).join('; ');
      problems.push(`${name}=${JSON.stringify(raw)}: ${reason} (default ${entry.fallback})`);
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(`invalid environment switch${problems.length > 1 ? 'es' : ''}:\n  ${problems.join('\n  ')}`);
  }
  return result as Switches;
}
