// The DONKI tools that answer in text: SEP, MPC, RBE, HSS (one shared layout), WSA+Enlil
// simulations, and the notifications feed.
//
// The vendored reference defines `get_notifications` twice: first answering in text, then as a
// JSON dict with a flare-class guess. FastMCP's ToolManager keeps the first registration of a
// name and ignores the second (it only logs "Tool already exists"), so the text version is what
// a model received; that is the one implemented here (`notification_type` defaults to "all").
import { z } from 'zod';
import { pythonGet, pythonLength, pythonSlice, pythonStr } from '../shared/python-format.js';
import { errorResult, textResult } from '../shared/tool-result.js';
import { dateRange, donkiDateParams } from './donki-events.js';
import { unexpectedFormat, type NasaApi } from './nasa-api.js';
import { field, joinReferenceLines, listField, SEPARATOR, textOutcome, type NasaTool } from './text-format.js';

/** The reference's `format_donki_results` for the event types whose ids are not activityID/gstID. */
function formatDonkiResults(data: unknown[], title: string, idKey: string): string {
  const lines = [`${title} found: ${data.length}`];
  for (const [index, item] of data.entries()) {
    if (index >= 10) {
      lines.push(`n... and ${data.length - 10} more entries.`);
      break;
    }
    lines.push(`nID: ${field(item, idKey)}`);
    const present = (key: string) => item !== null && typeof item === 'object' && Object.hasOwn(item, key);
    if (present('startTime')) lines.push(`Start Time: ${field(item, 'startTime')}`);
    if (present('eventTime')) lines.push(`Event Time: ${field(item, 'eventTime')}`);
    if (present('sourceLocation')) lines.push(`Source Location: ${field(item, 'sourceLocation')}`);
    if (present('note')) lines.push(`Note: ${field(item, 'note', 'N/A')}`);
    if (present('link')) lines.push(`Link: ${field(item, 'link', 'N/A')}`);
    const linked = listField(item, 'linkedEvents');
    if (linked.length > 0) {
      lines.push('  Related event IDs (first 5):');
      lines.push(
        `    ${linked
          .slice(0, 5)
          .map((event) => field(event, 'activityID', 'N/A'))
          .join(', ')}`,
      );
    }
    lines.push(SEPARATOR);
  }
  return joinReferenceLines(lines);
}

function eventReportTool(name: string, endpoint: string, title: string, idKey: string, what: string): NasaTool {
  return {
    name,
    description: `Get ${what} (${endpoint}) events from NASA DONKI.\n\nArgs:\n  start_date (str, optional): Start date in YYYY-MM-DD format.\n  end_date (str, optional): End date in YYYY-MM-DD format.\n\nReturns:\n  text (str): Formatted list of ${endpoint} events or a no-data message.`,
    shape: dateRange,
    run: async (api: NasaApi, args) => {
      const outcome = textOutcome(await api.get(`/DONKI/${endpoint}`, donkiDateParams(args)), `Could not retrieve ${endpoint} data due to a connection error.`);
      if ('result' in outcome) return outcome.result;
      if (!Array.isArray(outcome.data)) throw unexpectedFormat(`Received unexpected data format from ${endpoint} API.`);
      return textResult(formatDonkiResults(outcome.data, title, idKey));
    },
  };
}

function formatSimulations(data: unknown[]): string {
  const lines = [`WSA+Enlil Simulations found: ${data.length}`];
  for (const [index, simulation] of data.entries()) {
    if (index >= 5) {
      lines.push(`n... and ${data.length - 5} more simulations.`);
      break;
    }
    lines.push(`nSimulation ID: ${field(simulation, 'simulationID')}`);
    lines.push(`Model Completion Time: ${field(simulation, 'modelCompletionTime')}`);
    const impacts = listField(simulation, 'impactList');
    if (impacts.length > 0) {
      lines.push('  Impacts (first 2):');
      for (const impact of impacts.slice(0, 2))
        lines.push(`    - Location: ${field(impact, 'location', 'N/A')}, Arrival: ${field(impact, 'arrivalTime', 'N/A')}`);
    }
    lines.push(SEPARATOR);
  }
  return joinReferenceLines(lines);
}

function formatNotifications(data: unknown[]): string {
  const lines = [`Notifications found: ${data.length}`];
  for (const [index, notification] of data.entries()) {
    if (index >= 10) {
      lines.push(`n... and ${data.length - 10} more notifications.`);
      break;
    }
    lines.push(`nID: ${field(notification, 'messageID')}`);
    lines.push(`Type: ${field(notification, 'messageType')}`);
    lines.push(`Issue Time: ${field(notification, 'messageIssueTime')}`);
    lines.push(`Header: ${field(notification, 'messageHeader', 'N/A')}`);
    const body = pythonStr(pythonGet(notification, 'messageBody', 'N/A') ?? 'N/A');
    lines.push(`Body: ${pythonSlice(body, 200)}${pythonLength(body) > 200 ? '...' : ''}`);
    lines.push(SEPARATOR);
  }
  return joinReferenceLines(lines);
}

const notificationsDescription = `Retrieve real-time space weather alerts from NASA DONKI Notifications API (GET https://api.nasa.gov/DONKI/notifications).

Provides notification messages for space weather disturbances (solar events that may impact satellites, aviation, power grids, or auroras on Earth).

Args:
    start_date (str): Filter notifications occurring on/after this date. Format: "YYYY-MM-DD". Default: 7 days before current date.
    end_date (str): Filter notifications occurring on/before this date. Format: "YYYY-MM-DD". Default: current date.
    notification_type (str): Category filter: "all" (default), "FLR" (Solar Flare), "SEP" (Solar Energetic Particle Event), "CME" (Coronal Mass Ejection), "IPS" (Interplanetary Shock), "MPC" (Magnetopause Crossing), "GST" (Geomagnetic Storm), "RBE" (Radiation Belt Enhancement), "report" (composite space weather summary reports).

Returns:
    str: Human-readable output: total notification count and, for up to 10 notifications, messageID, messageType, messageIssueTime, messageHeader and messageBody (first 200 characters).

Common Errors: 400 Bad Request (invalid date format / type filter), 429 Too Many Requests (API key rate limit exceeded), 500 Server Errors (NASA endpoint temporarily unavailable).

Usage example (MCP prompt): Call nasa-mcp/get_notifications with {"start_date": "2025-10-22", "end_date": "2025-10-29", "notification_type": "FLR"}`;

export const donkiReportTools: NasaTool[] = [
  eventReportTool('get_solar_energetic_particle', 'SEP', 'Solar Energetic Particle Events', 'sepID', 'solar energetic particle'),
  eventReportTool('get_magnetopause_crossing', 'MPC', 'Magnetopause Crossings', 'mpcID', 'magnetopause crossing'),
  eventReportTool('get_radiation_belt_enhancement', 'RBE', 'Radiation Belt Enhancements', 'rbeID', 'radiation belt enhancement'),
  // The reference's spelling ("hight") is the tool name the model sees.
  eventReportTool('get_hight_speed_stream', 'HSS', 'High Speed Streams', 'hssID', 'high speed stream'),
  {
    name: 'get_wsa_enlil_simulation',
    description:
      'Get WSA+Enlil solar wind simulation summaries.\n\nArgs:\n  start_date (str, optional): Start date in YYYY-MM-DD format.\n  end_date (str, optional): End date in YYYY-MM-DD format.\n\nReturns:\n  text (str): Formatted list of simulations and basic impact info.',
    shape: dateRange,
    run: async (api, args) => {
      const outcome = textOutcome(
        await api.get('/DONKI/WSAEnlilSimulations', donkiDateParams(args)),
        'Could not retrieve WSA+Enlil simulation data due to a connection error.',
      );
      if ('result' in outcome) return outcome.result;
      if (!Array.isArray(outcome.data)) throw unexpectedFormat('Received unexpected data format from WSA+Enlil API.');
      return textResult(formatSimulations(outcome.data));
    },
  },
  {
    name: 'get_notifications',
    description: notificationsDescription,
    shape: { ...dateRange, notification_type: z.string().default('all').describe('Category filter: all, FLR, SEP, CME, IPS, MPC, GST, RBE or report.') },
    run: async (api, args) => {
      const answer = await api.get('/DONKI/notifications', { type: String(args.notification_type ?? 'all'), ...donkiDateParams(args) });
      if (answer.kind === 'http_error') return errorResult(`API Error: ${answer.error} - Details: ${pythonStr(answer.details)}`);
      const data = answer.data;
      if (Array.isArray(data) && data.length === 0) return textResult('No notifications found for the specified period and type (NASA returned empty list).');
      if (!Array.isArray(data)) throw unexpectedFormat('Received unexpected data format from Notifications API.');
      return textResult(formatNotifications(data));
    },
  },
];
