// The tool-category labeller behind `m3 tools classify`. Facts taken from the reference's
// tools/classify_mcp_tools.py: eight categories; one label per tool chosen by a model from the
// tool's `server.tool` name and description; the answer must be the label alone wrapped in
// <<BBOX>>...<</BBOX>>, exactly one of the eight strings, else the tool is asked again (three
// attempts), then skipped with a warning; labels go into the reference layout
// (`{server: {tool: {description, catalogry}}}`, the reference's spelling), only tools without
// one are asked, and the file is written after every label so an interrupted pass keeps its work.
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { EvaluationError } from '../../errors/index.js';
import { generateWithRetry, type RetryPolicy } from '../../llm/retry.js';
import type { GenerateRequest, ModelDriver } from '../../llm/types.js';
import { loadJsonFile } from '../../tasks/load-json.js';
import { writeJsonAtomic } from '../../tasks/write-json.js';

/** @internal Exported for its tests. */
export const TOOL_CATEGORIES = [
  'Weather & Air Quality',
  'Geography & Travel',
  'Health',
  'Science & Space',
  'Academic & Knowledge',
  'Office Automation',
  'Computer Vision',
  'E-commerce & Finance',
] as const;

const labelPattern = /<<BBOX>>([\s\S]*?)<<\/BBOX>>/;

/** The request for one tool: the label set and the answer format in the system text, the tool in the user text. */
function categoryRequest(fullName: string, description: string, maxTokens: number): GenerateRequest {
  const system = [
    'Classify the tool into exactly one category. Allowed categories (answer with one of these strings, exactly as written):',
    TOOL_CATEGORIES.join(', '),
    '',
    `Answer with the category wrapped in <<BBOX>> and <</BBOX>> and nothing else, e.g. <<BBOX>>${TOOL_CATEGORIES[0]}<</BBOX>>.`,
    'No explanation, no line breaks, no other words before or after.',
  ].join('\n');
  const user = `Pick the one best category for this tool.\nTool: ${fullName}\nDescription: ${description}`;
  return {
    system,
    messages: [{ role: 'user', content: [{ type: 'text', text: user }] }],
    tools: [],
    toolChoice: 'none',
    maxTokens,
    context: { taskId: fullName, purpose: 'judge' },
  };
}

/**
 * The label of a reply, when it is wrapped as asked and is one of the categories.
 * @internal Exported for its tests.
 */
export function parseCategory(reply: string): string | undefined {
  const label = labelPattern.exec(reply)?.[1]?.trim();
  return label !== undefined && (TOOL_CATEGORIES as readonly string[]).includes(label) ? label : undefined;
}

const toolEntry = z.object({ description: z.string().nullish(), catalogry: z.string().optional() }).loose();
const referenceCatalog = z.record(z.string(), z.record(z.string(), toolEntry));
type ReferenceCatalog = z.output<typeof referenceCatalog>;

function loadReferenceCatalog(file: string): ReferenceCatalog {
  if (!existsSync(file)) throw new EvaluationError(`${file}: not found (m3 run writes it beside the predictions; or pass --catalog)`);
  const parsed = referenceCatalog.safeParse(loadJsonFile(file));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EvaluationError(
      `${file}: at ${['$', ...(issue?.path ?? []).map(String)].join('.')}: ${issue?.message ?? 'invalid'} (expected the reference layout {server: {tool: {description, catalogry?}}})`,
    );
  }
  return parsed.data;
}

export interface ClassifyOptions {
  file: string;
  driver: ModelDriver;
  retryPolicy: RetryPolicy;
  /** Answers that are not a wrapped category are asked again up to this many times in all (the reference: 3). */
  attempts: number;
  maxTokens: number;
  onLabel?: (fullName: string, label: string) => void;
  signal?: AbortSignal;
}

export interface ClassifyReport {
  file: string;
  model: string;
  tools: number;
  /** Tools that already carried a label and were not asked. */
  kept: number;
  labelled: Array<{ tool: string; category: string }>;
  failed: Array<{ tool: string; reason: string }>;
  /** Tools per category over the whole file after this pass. */
  counts: Record<string, number>;
}

async function labelOne(fullName: string, description: string, options: ClassifyOptions): Promise<{ label: string } | { reason: string }> {
  let last = '';
  for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
    const request = categoryRequest(fullName, description, options.maxTokens);
    try {
      last = (await generateWithRetry(options.driver, request, options.retryPolicy, options.signal ? { signal: options.signal } : {})).text;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { reason: `request failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    const label = parseCategory(last);
    if (label) return { label };
  }
  return { reason: `no allowed category in ${options.attempts} answer(s); last: ${JSON.stringify(last.slice(0, 200))}` };
}

/** Labels every tool of the file without a `catalogry`, writing the file after each label. */
export async function classifyCatalogTools(options: ClassifyOptions): Promise<ClassifyReport> {
  const catalog = loadReferenceCatalog(options.file);
  const report: ClassifyReport = { file: options.file, model: options.driver.id, tools: 0, kept: 0, labelled: [], failed: [], counts: {} };
  for (const [server, tools] of Object.entries(catalog)) {
    for (const [tool, entry] of Object.entries(tools)) {
      report.tools += 1;
      if (entry.catalogry !== undefined) {
        report.kept += 1;
        continue;
      }
      const fullName = `${server}.${tool}`;
      const outcome = await labelOne(fullName, entry.description ?? '', options);
      if ('reason' in outcome) {
        report.failed.push({ tool: `${server}/${tool}`, reason: outcome.reason });
        continue;
      }
      entry.catalogry = outcome.label;
      writeJsonAtomic(options.file, catalog);
      report.labelled.push({ tool: `${server}/${tool}`, category: outcome.label });
      options.onLabel?.(fullName, outcome.label);
    }
  }
  for (const tools of Object.values(catalog))
    for (const entry of Object.values(tools)) if (entry.catalogry) report.counts[entry.catalogry] = (report.counts[entry.catalogry] ?? 0) + 1;
  return report;
}
