// The 11 tools of the reference healthcare-mcp server: names, descriptions and input schemas as
// its index.js lists them (so ground-truth arguments validate unchanged), each dispatched to
// the module that talks to its upstream. Every call is counted first, as the reference does.
import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { taskKeyOf } from '../shared/call-context.js';
import { searchTrials, trialStatuses } from './clinical-trials.js';
import { extractDicomMetadata } from './dicom.js';
import { fdaSearchTypes, lookupDrug } from './fda.js';
import { getHealthTopics, topicLanguages } from './health-topics.js';
import { lookupIcdCode } from './icd10.js';
import { calculateBmi, UsageCounter } from './local-tools.js';
import { searchMedrxiv } from './medrxiv.js';
import { searchBookshelf, searchPubmed } from './ncbi.js';
import { clampCount, runReferenceTool, toResult } from './reference-shape.js';

type Extra = { _meta?: unknown };

const maxResults = (fallback: number, max: number) => z.number().min(1).max(max).default(fallback).describe('Maximum number of results to return');

const doc = (summary: string, args: string[], returns: string) =>
  `  ${summary}\n  Args:\n${args.map((line) => `    ${line}`).join('\n')}\n  Returns:\n    result (object): ${returns}`;

export function registerHealthcareTools(server: McpServer): void {
  const usage = new UsageCounter();
  const tool = <Shape extends z.ZodRawShape>(
    name: string,
    description: string,
    inputSchema: Shape,
    run: (args: z.output<z.ZodObject<Shape>>, extra: Extra) => Promise<CallToolResult> | CallToolResult,
  ) => {
    const counted = (args: z.output<z.ZodObject<Shape>>, extra: Extra) => {
      usage.record(taskKeyOf(extra), name);
      return run(args, extra);
    };
    // The SDK types the callback through a conditional on the shape, which TypeScript cannot
    // resolve for a generic Shape; the zod object above is exactly what the SDK parses with.
    server.registerTool(name, { description, inputSchema }, counted as unknown as ToolCallback<Shape>);
  };

  tool(
    'fda_drug_lookup',
    doc(
      'Look up FDA drug information by name.',
      ['drug_name (string): Drug name to search.', 'search_type (string): Information type: general, label, or adverse_events.'],
      'JSON object with status, search parameters, and drug records.',
    ),
    {
      drug_name: z.string().describe('Name of the drug to search for'),
      search_type: z.enum(fdaSearchTypes).default('general').describe("Type of information to retrieve: 'label', 'adverse_events', or 'general'"),
    },
    (args) => runReferenceTool('Error fetching drug information', () => lookupDrug(args.drug_name, args.search_type)),
  );

  tool(
    'pubmed_search',
    doc(
      'Search medical literature in PubMed.',
      [
        'query (string): Search query text.',
        'max_results (number): Maximum number of results to return.',
        'date_range (string): Optional year-window filter.',
        'open_access (boolean): Whether to filter for open access only.',
      ],
      'JSON object with status, query parameters, and article records.',
    ),
    {
      query: z.string().describe('Search query for medical literature'),
      max_results: maxResults(5, 100),
      date_range: z.string().default('').describe("Limit to articles published within years (e.g. '5' for last 5 years)"),
      open_access: z.boolean().default(false).describe('Filter for open access articles'),
    },
    (args) =>
      runReferenceTool('Error searching PubMed', () => searchPubmed(args.query, clampCount(args.max_results, 5, 100), args.date_range, args.open_access)),
  );

  tool(
    'medrxiv_search',
    doc(
      'Search preprint articles on medRxiv.',
      ['query (string): Search query text.', 'max_results (number): Maximum number of results to return.'],
      'JSON object with status, query parameters, and article records.',
    ),
    { query: z.string().describe('Search query for medRxiv articles'), max_results: maxResults(10, 100) },
    (args) => runReferenceTool('Error searching medRxiv', () => searchMedrxiv(args.query, clampCount(args.max_results, 10, 100))),
  );

  tool(
    'calculate_bmi',
    doc(
      'Calculate Body Mass Index (BMI).',
      ['height_meters (number): Height in meters.', 'weight_kg (number): Weight in kilograms.'],
      'JSON object with status and BMI value.',
    ),
    { height_meters: z.number().describe('Height in meters'), weight_kg: z.number().describe('Weight in kilograms') },
    (args) => toResult(calculateBmi(args.height_meters, args.weight_kg)),
  );

  tool(
    'ncbi_bookshelf_search',
    doc(
      'Search books and chapters in the NCBI Bookshelf.',
      ['query (string): Search query text.', 'max_results (number): Maximum number of results to return.'],
      'JSON object with status, query parameters, and book records.',
    ),
    { query: z.string().describe('Search query for NCBI Bookshelf'), max_results: maxResults(10, 100) },
    (args) => runReferenceTool('Error searching NCBI Bookshelf', () => searchBookshelf(args.query, clampCount(args.max_results, 10, 100))),
  );

  tool(
    'extract_dicom_metadata',
    doc(
      'Extract key metadata from a local DICOM file.',
      ['file_path (string): Local filesystem path to the DICOM file.'],
      'JSON object with status and selected DICOM metadata fields.',
    ),
    { file_path: z.string().describe('Path to the DICOM file') },
    (args, extra) => runReferenceTool('Error parsing DICOM file', () => extractDicomMetadata(args.file_path, extra)),
  );

  tool(
    'health_topics',
    doc(
      'Get evidence-based health topic summaries from Health.gov.',
      ['topic (string): Health topic search term.', 'language (string): Result language code, en or es.'],
      'JSON object with status, topic, language, and topic entries.',
    ),
    {
      topic: z.string().describe('Health topic to search for information'),
      language: z.enum(topicLanguages).default('en').describe('Language for content (en or es)'),
    },
    (args) => runReferenceTool('Error searching health topics', () => getHealthTopics(args.topic, args.language)),
  );

  tool(
    'clinical_trials_search',
    doc(
      'Search clinical study records from ClinicalTrials.gov.',
      [
        'condition (string): Condition or disease name to search.',
        'status (string): Trial status filter such as recruiting or completed.',
        'max_results (number): Maximum number of trials to return.',
      ],
      'JSON object with status, query parameters, and trial records.',
    ),
    {
      condition: z.string().describe('Medical condition or disease to search for'),
      status: z.enum(trialStatuses).default('recruiting').describe('Trial status'),
      max_results: maxResults(10, 100),
    },
    (args) => runReferenceTool('Error searching clinical trials', () => searchTrials(args.condition, args.status, clampCount(args.max_results, 10, 100))),
  );

  tool(
    'lookup_icd_code',
    doc(
      'Look up ICD-10 diagnosis codes and descriptions.',
      [
        'code (string): ICD-10 code to look up (optional if description is provided).',
        'description (string): Condition description to search (optional if code is provided).',
        'max_results (number): Maximum number of code records to return.',
      ],
      'JSON object with status, search parameters, and code records.',
    ),
    {
      code: z.string().optional().describe('ICD-10 code to look up (optional if description is provided)'),
      description: z.string().optional().describe('Medical condition description to search for (optional if code is provided)'),
      max_results: maxResults(10, 50),
    },
    (args) =>
      runReferenceTool('Error looking up ICD-10 code', () => {
        const code = args.code ?? '';
        const description = args.description ?? '';
        if (!code && !description) return { status: 'error', error_message: 'Either code or description is required' };
        return lookupIcdCode(code, description, clampCount(args.max_results, 10, 50));
      }),
  );

  tool(
    'get_usage_stats',
    doc(
      'Get usage statistics for the current MCP session.',
      ['(none): This tool takes no input arguments.'],
      'JSON object with session ID, start time, and tool call counts.',
    ),
    {},
    (_args, extra) => toResult(usage.session(taskKeyOf(extra))),
  );

  tool(
    'get_all_usage_stats',
    doc(
      'Get aggregated usage statistics across all sessions.',
      ['(none): This tool takes no input arguments.'],
      'JSON object with overall usage statistics by session and tool.',
    ),
    {},
    () => toResult(usage.all()),
  );
}
