// The three DONKI tools the reference rewrote to return compact JSON (a dict FastMCP sends as
// indented JSON): coronal mass ejections, geomagnetic storms and solar flares, at most 10 events
// each. The ground truth calls the CME and flare tools (research_station tasks).
//
// One deliberate difference: the reference read `event.get("linkedEvents", [])[:5]`, which raises
// on the JSON null DONKI sends for events without links (97 of the 144 CMEs of May 2024 in the
// recorded bodies under test/servers/nasa/fixtures), so the tool failed on most real days; the
// ground-truth answers show it returning events for the GT dates. A null list reads as empty here.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { numberValue, pythonFloat, pythonGet, pythonTruthy, toPythonJson } from '../shared/python-format.js';
import { errorResult, textResult } from '../shared/tool-result.js';
import { unexpectedFormat, type NasaApi, type QueryParams } from './nasa-api.js';
import { listField, type NasaTool } from './text-format.js';

export const dateRange = {
  start_date: z.string().optional().describe('Start date in YYYY-MM-DD format.'),
  end_date: z.string().optional().describe('End date in YYYY-MM-DD format.'),
};

export function donkiDateParams(args: Record<string, unknown>): QueryParams {
  const params: QueryParams = {};
  if (args.start_date) params.startDate = String(args.start_date);
  if (args.end_date) params.endDate = String(args.end_date);
  return params;
}

const json = (value: unknown): CallToolResult => textResult(toPythonJson(value));

/** Fetches a DONKI list for a compact-JSON tool, answering the reference's error dicts itself. */
async function donkiList(
  api: NasaApi,
  endpoint: string,
  args: Record<string, unknown>,
  messages: { empty: string; unexpected: string },
): Promise<unknown[] | CallToolResult> {
  const answer = await api.get(`/DONKI/${endpoint}`, donkiDateParams(args));
  if (answer.kind === 'http_error') return errorResult(toPythonJson({ error: answer.error, details: answer.details }));
  if (!pythonTruthy(answer.data)) return json({ error: messages.empty });
  if (!Array.isArray(answer.data)) throw unexpectedFormat(messages.unexpected);
  return answer.data;
}

function linkedIds(event: unknown): unknown[] {
  return listField(event, 'linkedEvents')
    .slice(0, 5)
    .map((linked) => pythonGet(linked, 'activityID'));
}

function toCme(cme: unknown): Record<string, unknown> {
  const analyses = listField(cme, 'cmeAnalyses');
  const first = analyses[0];
  return {
    id: pythonGet(cme, 'activityID'),
    start_time: pythonGet(cme, 'startTime'),
    source_location: pythonGet(cme, 'sourceLocation'),
    link: pythonGet(cme, 'link'),
    speed: first === undefined ? null : pythonGet(first, 'speed'),
    type: first === undefined ? null : pythonGet(first, 'type'),
    related_events: linkedIds(cme),
  };
}

function toStorm(gst: unknown): Record<string, unknown> {
  // float(kpIndex) for every entry that has one; entries float() rejects (null) are skipped.
  const kp = listField(gst, 'allKpIndex')
    .filter((entry) => entry !== null && typeof entry === 'object' && Object.hasOwn(entry, 'kpIndex'))
    .map((entry) => numberValue(pythonGet(entry, 'kpIndex')))
    .filter((value): value is number => value !== undefined);
  return {
    id: pythonGet(gst, 'gstID'),
    start_time: pythonGet(gst, 'startTime'),
    end_time: pythonGet(gst, 'endTime'),
    max_kp: kp.length > 0 ? pythonFloat(Math.max(...kp)) : null,
    kp_series: kp.map(pythonFloat),
  };
}

function toFlare(flare: unknown): Record<string, unknown> {
  return {
    id: pythonGet(flare, 'flrID'),
    begin_time: pythonGet(flare, 'beginTime'),
    peak_time: pythonGet(flare, 'peakTime'),
    end_time: pythonGet(flare, 'endTime'),
    class: pythonGet(flare, 'classType'),
    source_location: pythonGet(flare, 'sourceLocation'),
    linked_events: linkedIds(flare),
  };
}

interface EventKind {
  name: string;
  endpoint: string;
  what: string;
  returns: string;
  messages: { empty: string; unexpected: string };
  toEvent: (event: unknown) => Record<string, unknown>;
}

/** A compact-JSON DONKI tool: the first 10 events, mapped, with their count. */
function eventTool(kind: EventKind): NasaTool {
  return {
    name: kind.name,
    description: `Retrieve ${kind.what} (${kind.endpoint}) events from NASA DONKI.\n\nArgs:\n  start_date (str, optional): Start date in YYYY-MM-DD format.\n  end_date (str, optional): End date in YYYY-MM-DD format.\n\nReturns:\n  result (dict): Compact JSON with ${kind.returns}.`,
    shape: dateRange,
    run: async (api, args) => {
      const list = await donkiList(api, kind.endpoint, args, kind.messages);
      if (!Array.isArray(list)) return list;
      const events = list.slice(0, 10).map(kind.toEvent);
      return json({ count: events.length, events });
    },
  };
}

export const donkiEventTools: NasaTool[] = [
  eventTool({
    name: 'get_coronal_mass_ejection',
    endpoint: 'CME',
    what: 'coronal mass ejection',
    returns: 'CME event count and basic fields',
    messages: { empty: 'Could not retrieve CME data (connection error).', unexpected: 'Unexpected data format from CME API.' },
    toEvent: toCme,
  }),
  eventTool({
    name: 'get_geomagnetic_storm',
    endpoint: 'GST',
    what: 'geomagnetic storm',
    returns: 'GST event count and Kp index data',
    messages: { empty: 'Could not retrieve GST data due to a connection or timeout issue.', unexpected: 'Unexpected response structure from GST API.' },
    toEvent: toStorm,
  }),
  eventTool({
    name: 'get_solar_flare',
    endpoint: 'FLR',
    what: 'solar flare',
    returns: 'flare event count and basic fields',
    messages: { empty: 'Could not retrieve FLR data (connection error).', unexpected: 'Unexpected data format from FLR API.' },
    toEvent: toFlare,
  }),
];
