// Astronomy Picture of the Day and the Near Earth Object Web Service (feed, lookup, browse).
// The reference returns the picture's URL as text and downloads nothing; so do we.
import { z } from 'zod';
import { pythonGet, pythonTruthy } from '../shared/python-format.js';
import { textResult } from '../shared/tool-result.js';
import { unexpectedFormat, type QueryParams } from './nasa-api.js';
import { field, joinReferenceLines, listField, nestedField, SEPARATOR, textOutcome, type NasaTool } from './text-format.js';

const has = (record: unknown, key: string) => record !== null && typeof record === 'object' && Object.hasOwn(record, key);
const yesNo = (record: unknown, key: string) => (pythonTruthy(pythonGet(record, key, false)) ? 'Yes' : 'No');
const kilometres = (record: unknown, bound: 'min' | 'max') => nestedField(record, ['estimated_diameter', 'kilometers', `estimated_diameter_${bound}`]);

function requireObject(data: unknown, what: string): Record<string, unknown> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw unexpectedFormat(`Received unexpected data format from ${what} API.`);
  return data as Record<string, unknown>;
}

function formatApod(data: unknown, thumbs: boolean): string {
  if (Array.isArray(data)) {
    const lines: string[] = [];
    for (const item of data) {
      lines.push(`Date: ${field(item, 'date')}`, `Title: ${field(item, 'title', 'No title')}`);
      lines.push(`Explanation: ${field(item, 'explanation', 'No explanation')}`, `URL: ${field(item, 'url', 'Not available')}`);
      if (has(item, 'copyright')) lines.push(`Copyright: ${field(item, 'copyright')}`);
      if (thumbs && has(item, 'thumbnail_url')) lines.push(`Thumbnail URL: ${field(item, 'thumbnail_url', 'Not available')}`);
      lines.push(SEPARATOR);
    }
    return joinReferenceLines(lines);
  }
  // The single-picture answer is a triple-quoted f-string (real newlines) with "n"-ended extras.
  let text = `\nDate: ${field(data, 'date')}\nTitle: ${field(data, 'title', 'No title')}\nExplanation: ${field(data, 'explanation', 'No explanation')}\nURL: ${field(data, 'url', 'Not available')}\n`;
  if (has(data, 'copyright')) text += `Copyright: ${field(data, 'copyright')}n`;
  if (thumbs && has(data, 'thumbnail_url')) text += `Thumbnail URL: ${field(data, 'thumbnail_url', 'Not available')}n`;
  return text;
}

function formatFeed(data: Record<string, unknown>): string {
  const lines = [`Total asteroids found: ${field(data, 'element_count', '0')}`];
  const byDate = pythonGet(data, 'near_earth_objects', {});
  for (const [date, asteroids] of Object.entries(byDate && typeof byDate === 'object' ? byDate : {})) {
    const list = Array.isArray(asteroids) ? asteroids : [];
    lines.push(`nDate: ${date}`, `Number of asteroids: ${list.length}`);
    for (const asteroid of list) {
      lines.push(`n  ID: ${field(asteroid, 'id')}`, `  Name: ${field(asteroid, 'name')}`);
      lines.push(`  Estimated diameter (min): ${kilometres(asteroid, 'min')} km`, `  Estimated diameter (max): ${kilometres(asteroid, 'max')} km`);
      lines.push(`  Potentially hazardous: ${yesNo(asteroid, 'is_potentially_hazardous_asteroid')}`);
      const approach = listField(asteroid, 'close_approach_data')[0];
      if (approach !== undefined) {
        lines.push(`  Approach date: ${field(approach, 'close_approach_date_full')}`);
        lines.push(`  Distance (km): ${nestedField(approach, ['miss_distance', 'kilometers'])}`);
        lines.push(`  Relative velocity (km/h): ${nestedField(approach, ['relative_velocity', 'kilometers_per_hour'])}`);
      }
    }
  }
  return joinReferenceLines(lines);
}

function formatLookup(data: Record<string, unknown>): string {
  const lines = [
    `ID: ${field(data, 'id')}`,
    `Name: ${field(data, 'name')}`,
    `Designation: ${field(data, 'designation')}`,
    `NASA JPL URL: ${field(data, 'nasa_jpl_url', 'Not available')}`,
    `Absolute magnitude: ${field(data, 'absolute_magnitude_h')}`,
    'nEstimated diameter:',
    `  Minimum (km): ${kilometres(data, 'min')}`,
    `  Maximum (km): ${kilometres(data, 'max')}`,
    `nPotentially hazardous: ${yesNo(data, 'is_potentially_hazardous_asteroid')}`,
    `Sentry Object: ${yesNo(data, 'is_sentry_object')}`,
  ];
  const approaches = listField(data, 'close_approach_data');
  if (approaches.length > 0) {
    lines.push('nClose approaches:');
    for (const [index, approach] of approaches.slice(0, 5).entries()) {
      lines.push(`n  Approach ${index + 1}:`, `  Date: ${field(approach, 'close_approach_date_full')}`, `  Orbiting body: ${field(approach, 'orbiting_body')}`);
      lines.push(`  Distance (km): ${nestedField(approach, ['miss_distance', 'kilometers'])}`);
      lines.push(`  Relative velocity (km/h): ${nestedField(approach, ['relative_velocity', 'kilometers_per_hour'])}`);
    }
    if (approaches.length > 5) lines.push(`n  ... and ${approaches.length - 5} more approaches.`);
  }
  const orbit = pythonGet(data, 'orbital_data', {});
  if (pythonTruthy(orbit)) {
    lines.push('nOrbital data:', `  Orbit determination date: ${field(orbit, 'orbit_determination_date')}`);
    lines.push(`  Semi-major axis: ${field(orbit, 'semi_major_axis')} AU`, `  Eccentricity: ${field(orbit, 'eccentricity')}`);
    lines.push(`  Inclination: ${field(orbit, 'inclination')} degrees`, `  Orbital period: ${field(orbit, 'orbital_period')} days`);
  }
  return joinReferenceLines(lines);
}

function formatBrowse(data: Record<string, unknown>): string {
  const page = pythonGet(data, 'page', {});
  const lines = [
    `Page ${nestedField(page, ['number'])} of ${nestedField(page, ['total_pages'])}`,
    `Total elements: ${nestedField(page, ['total_elements'])}`,
    '',
  ];
  const asteroids = listField(data, 'near_earth_objects');
  for (const [index, asteroid] of asteroids.entries()) {
    if (index >= 10) {
      lines.push(`n... and ${asteroids.length - 10} more asteroids on this page.`);
      break;
    }
    lines.push(`ID: ${field(asteroid, 'id')}`, `Name: ${field(asteroid, 'name')}`, `Absolute magnitude: ${field(asteroid, 'absolute_magnitude_h')}`);
    lines.push(`Estimated diameter (min): ${kilometres(asteroid, 'min')} km`, `Estimated diameter (max): ${kilometres(asteroid, 'max')} km`);
    lines.push(`Potentially hazardous: ${yesNo(asteroid, 'is_potentially_hazardous_asteroid')}`, SEPARATOR);
  }
  return joinReferenceLines(lines);
}

export const apodAsteroidTools: NasaTool[] = [
  {
    name: 'get_astronomy_picture_of_day',
    description:
      'Get NASA Astronomy Picture of the Day metadata and URLs.\n\nArgs:\n  date (str, optional): Image date in YYYY-MM-DD format.\n  count (int, optional): Number of random images instead of a specific date.\n  thumbs (bool): Whether to include thumbnail URLs for videos.\n\nReturns:\n  text (str): Human-readable summary of APOD entries and links.',
    shape: { date: z.string().optional(), count: z.number().int().optional(), thumbs: z.boolean().default(false) },
    run: async (api, args) => {
      const params: QueryParams = {};
      if (args.date) params.date = String(args.date);
      if (args.count) params.count = Number(args.count);
      if (args.thumbs) params.thumbs = 'true';
      const outcome = textOutcome(await api.get('/planetary/apod', params), 'Could not retrieve astronomy picture of the day data due to a connection error.');
      if ('result' in outcome) return outcome.result;
      return textResult(formatApod(outcome.data, args.thumbs === true));
    },
  },
  {
    name: 'get_asteroids_feed',
    description:
      'Get near-Earth asteroid feed for a date range.\n\nArgs:\n  start_date (str): Start date in YYYY-MM-DD format.\n  end_date (str, optional): End date in YYYY-MM-DD format (max 7 days after start).\n\nReturns:\n  text (str): Summary of asteroid counts and key approach details.',
    shape: { start_date: z.string(), end_date: z.string().optional() },
    run: async (api, args) => {
      const params: QueryParams = { start_date: String(args.start_date) };
      if (args.end_date) params.end_date = String(args.end_date);
      const outcome = textOutcome(await api.get('/neo/rest/v1/feed', params), 'Could not retrieve asteroid data due to a connection error.');
      if ('result' in outcome) return outcome.result;
      return textResult(formatFeed(requireObject(outcome.data, 'Asteroids Feed')));
    },
  },
  {
    name: 'get_asteroid_lookup',
    description:
      'Look up detailed information for a single asteroid by ID.\n\nArgs:\n  asteroid_id (str): NASA JPL small body (SPK-ID) identifier.\n\nReturns:\n  text (str): Formatted asteroid physical and orbital properties.',
    shape: { asteroid_id: z.string() },
    run: async (api, args) => {
      const id = String(args.asteroid_id);
      const outcome = textOutcome(
        await api.get(`/neo/rest/v1/neo/${encodeURIComponent(id)}`),
        `Could not retrieve data for asteroid ID ${id} due to a connection error.`,
      );
      if ('result' in outcome) return outcome.result;
      return textResult(formatLookup(requireObject(outcome.data, 'Asteroid Lookup')));
    },
  },
  {
    name: 'browse_asteroids',
    description:
      'Browse a paged list of near-Earth asteroids.\n\nArgs:\n  None\n\nReturns:\n  text (str): Page summary and basic details for a subset of asteroids.',
    shape: {},
    run: async (api) => {
      const outcome = textOutcome(await api.get('/neo/rest/v1/neo/browse'), 'Could not retrieve asteroid dataset due to a connection error.');
      if ('result' in outcome) return outcome.result;
      return textResult(formatBrowse(requireObject(outcome.data, 'Browse Asteroids')));
    },
  },
];
