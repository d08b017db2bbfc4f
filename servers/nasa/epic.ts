// EPIC (Earth Polychromatic Imaging Camera) tools: image metadata with archive URLs, by latest
// date or a given date, and the list of dates. Like the reference they return the URLs as text
// and download no image; the links carry the public DEMO_KEY (see NasaApi.keyForLinks).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { pythonGet, pythonTruthy } from '../shared/python-format.js';
import { errorResult, textResult } from '../shared/tool-result.js';
import { unexpectedFormat, type NasaApi } from './nasa-api.js';
import { field, joinReferenceLines, SEPARATOR, textOutcome, type NasaTool } from './text-format.js';

const collections = ['natural', 'enhanced'];
const invalidCollection = 'Invalid collection. Available options: natural, enhanced.';
const collectionShape = z.string().default('natural').describe('EPIC collection type, such as "natural" or "enhanced".');

/** `datetime.strptime(text, '%Y-%m-%d %H:%M:%S')`: the zero-padded date parts, or undefined. */
function parseImageTime(text: unknown): [string, string, string] | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})$/.exec(text);
  if (!match) return undefined;
  const [, year = '', month = '', day = '', hour = '', minute = '', second = ''] = match;
  const valid = Number(month) >= 1 && Number(month) <= 12 && Number(hour) < 24 && Number(minute) < 60 && Number(second) < 62;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (!valid || date.getUTCDate() !== Number(day)) return undefined;
  return [year, month.padStart(2, '0'), day.padStart(2, '0')];
}

function archiveUrl(meta: unknown, collection: string, key: string): string {
  const dateTime = pythonGet(meta, 'date', 'Unknown');
  const image = pythonGet(meta, 'image', 'Unknown');
  if (dateTime === 'Unknown' || image === 'Unknown') return 'URL not available';
  const parts = parseImageTime(dateTime);
  if (!parts) return 'URL construction failed';
  const [year, month, day] = parts;
  return `https://api.nasa.gov/EPIC/archive/${collection}/${year}/${month}/${day}/png/${field(meta, 'image')}.png?api_key=${key}`;
}

function formatImages(data: unknown[], header: string, collection: string, key: string): string {
  const lines = [header];
  for (const [index, meta] of data.entries()) {
    if (index >= 10) {
      lines.push(`n... and ${data.length - 10} more images.`);
      break;
    }
    lines.push(`nIdentifier: ${field(meta, 'identifier')}`, `Date/Time: ${field(meta, 'date')}`, `Caption: ${field(meta, 'caption', 'No caption')}`);
    lines.push(`Image Name: ${field(meta, 'image')}`, `Archive URL: ${archiveUrl(meta, collection, key)}`);
    const coordinates = pythonGet(meta, 'centroid_coordinates', {});
    if (pythonTruthy(coordinates)) lines.push(`Centroid Coordinates: Lat ${field(coordinates, 'lat', 'N/A')}, Lon ${field(coordinates, 'lon', 'N/A')}`);
    lines.push(SEPARATOR);
  }
  return joinReferenceLines(lines);
}

/** Runs a tool body for a valid collection; any other refuses in the reference's words. */
function forCollection(run: (api: NasaApi, collection: string, args: Record<string, unknown>) => Promise<CallToolResult>): NasaTool['run'] {
  return async (api, args) => {
    const collection = String(args.collection ?? 'natural');
    return collections.includes(collection) ? run(api, collection, args) : errorResult(invalidCollection);
  };
}

async function imagesTool(api: NasaApi, collection: string, path: string, emptyMessage: string, header: (count: number) => string) {
  const outcome = textOutcome(await api.get(path), emptyMessage);
  if ('result' in outcome) return outcome.result;
  if (!Array.isArray(outcome.data)) throw unexpectedFormat('Received unexpected data format from EPIC API.');
  return textResult(formatImages(outcome.data, header(outcome.data.length), collection, api.keyForLinks));
}

export const epicTools: NasaTool[] = [
  {
    name: 'get_epic_imagery',
    description:
      'Get latest EPIC (Earth Polychromatic Imaging Camera) image metadata and URLs.\n\nArgs:\n  collection (str): EPIC collection type, such as "natural" or "enhanced".\n\nReturns:\n  text (str): Formatted list of recent EPIC images and archive URLs.',
    shape: { collection: collectionShape },
    run: forCollection((api, collection) =>
      imagesTool(
        api,
        collection,
        `/EPIC/api/${collection}/images`,
        'Could not retrieve EPIC images for latest date due to a connection error.',
        (count) => `EPIC images found: ${count}`,
      ),
    ),
  },
  {
    name: 'get_epic_imagery_by_date',
    description:
      'Get EPIC image metadata and URLs for a specific date.\n\nArgs:\n  date (str): Target date in YYYY-MM-DD format.\n  collection (str): EPIC collection type, such as "natural" or "enhanced".\n\nReturns:\n  text (str): Formatted list of EPIC images for that date and archive URLs.',
    shape: { date: z.string(), collection: collectionShape },
    run: forCollection((api, collection, args) => {
      const date = String(args.date);
      return imagesTool(
        api,
        collection,
        `/EPIC/api/${collection}/date/${encodeURIComponent(date)}`,
        `Could not retrieve EPIC images for date ${date} due to a connection error.`,
        (count) => `EPIC images found for date ${date}: ${count}`,
      );
    }),
  },
  {
    name: 'get_epic_dates',
    description:
      'Get all available dates for EPIC images in a collection.\n\nArgs:\n  collection (str): EPIC collection type, such as "natural" or "enhanced".\n\nReturns:\n  text (str): List of unique dates with available EPIC imagery.',
    shape: { collection: collectionShape },
    run: forCollection(async (api, collection) => {
      const outcome = textOutcome(
        await api.get(`/EPIC/api/${collection}/all`),
        `Could not retrieve available dates for EPIC ${collection} collection due to a connection error.`,
      );
      if ('result' in outcome) return outcome.result;
      if (!Array.isArray(outcome.data)) throw unexpectedFormat('Received unexpected data format from EPIC Dates API.');
      const dates = new Set<string>();
      for (const item of outcome.data) {
        const value = pythonGet(item, 'date', '');
        if (pythonTruthy(value)) dates.add(String(value).split(' ')[0] ?? '');
      }
      // sorted() on strings compares code points; these are ASCII dates, so JS's sort agrees.
      const unique = [...dates].sort();
      const lines = [`Available dates for EPIC ${collection} images: ${unique.length}`];
      for (let index = 0; index < unique.length; index += 10) lines.push(unique.slice(index, index + 10).join(', '));
      return textResult(joinReferenceLines(lines));
    }),
  },
];
