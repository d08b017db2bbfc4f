// Mars rover photos and mission manifests (api.nasa.gov), and the NASA Exoplanet Archive query.
// The rover tools list photo URLs as text, as the reference does; nothing is downloaded.
import { z } from 'zod';
import { parseJsonText } from '../shared/http-body.js';
import { numberValue, pythonGet, pythonLength, pythonSlice, pythonStr } from '../shared/python-format.js';
import { errorResult, textResult } from '../shared/tool-result.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { unexpectedFormat, type NasaApi, type QueryParams } from './nasa-api.js';
import { field, joinReferenceLines, listField, nestedField, SEPARATOR, textOutcome, type NasaTool } from './text-format.js';

const roverCameras: Record<string, string[]> = {
  curiosity: ['FHAZ', 'RHAZ', 'MAST', 'CHEMCAM', 'MAHLI', 'MARDI', 'NAVCAM'],
  opportunity: ['FHAZ', 'RHAZ', 'NAVCAM', 'PANCAM', 'MINITES'],
  spirit: ['FHAZ', 'RHAZ', 'NAVCAM', 'PANCAM', 'MINITES'],
};
const invalidRover = `Invalid rover name. Available rovers: ${Object.keys(roverCameras).join(', ')}`;

function photosTarget(args: Record<string, unknown>): { rover: string; params: QueryParams; criteria: string } | string {
  const rover = String(args.rover_name).toLowerCase();
  const cameras = roverCameras[rover];
  if (!cameras) return invalidRover;
  const { sol, earth_date: earthDate } = args;
  if (sol !== undefined && earthDate !== undefined) return 'Error: Specify either sol or earth_date, but not both.';
  if (sol === undefined && earthDate === undefined) return 'Error: Specify either sol or earth_date.';
  const page = Number(args.page ?? 1);
  const params: QueryParams = { page };
  if (sol !== undefined) params.sol = Number(sol);
  if (earthDate !== undefined) params.earth_date = String(earthDate);
  let criteria = sol !== undefined ? `sol=${String(sol)}` : `earth_date=${String(earthDate)}`;
  if (args.camera) {
    const camera = String(args.camera).toUpperCase();
    if (!cameras.includes(camera)) return `Invalid camera '${camera}' for rover '${rover}'. Available cameras: ${cameras.join(', ')}`;
    params.camera = camera;
    criteria += `, camera=${camera}`;
  }
  return { rover, params, criteria };
}

function formatPhotos(photos: unknown[], rover: string, page: number): string {
  const lines = [`Mars Rover Photos for '${rover}' (Page ${page}): ${photos.length} found on this page.`];
  for (const [index, photo] of photos.entries()) {
    if (index >= 10) {
      lines.push(`n... and ${photos.length - 10} more photos on this page.`);
      break;
    }
    lines.push(`nPhoto ID: ${field(photo, 'id')}`, `Sol: ${field(photo, 'sol')}`, `Earth Date: ${field(photo, 'earth_date')}`);
    lines.push(`Camera: ${nestedField(photo, ['camera', 'name'])} (${nestedField(photo, ['camera', 'full_name'], 'N/A')})`);
    lines.push(`Image URL: ${field(photo, 'img_src', 'Not available')}`);
    lines.push(`Rover: ${nestedField(photo, ['rover', 'name'])} (Status: ${nestedField(photo, ['rover', 'status'], 'N/A')}) `, SEPARATOR);
  }
  return joinReferenceLines(lines);
}

function formatManifest(manifest: unknown): string {
  const lines = [
    `Mission Manifest for Rover: ${field(manifest, 'name')}`,
    `Status: ${field(manifest, 'status')}`,
    `Launch Date: ${field(manifest, 'launch_date')}`,
    `Landing Date: ${field(manifest, 'landing_date')}`,
    `Max Sol: ${field(manifest, 'max_sol')}`,
    `Max Earth Date: ${field(manifest, 'max_date')}`,
    `Total Photos: ${field(manifest, 'total_photos')}`,
    'nPhoto Summary per Sol (showing latest 5 sols with photos):',
  ];
  const perSol = listField(manifest, 'photos');
  const solOf = (entry: unknown) => numberValue(pythonGet(entry, 'sol', -1)) ?? -1;
  const latestFirst = [...perSol].sort((a, b) => solOf(b) - solOf(a));
  for (const [index, sol] of latestFirst.entries()) {
    if (index >= 5) {
      lines.push(`n... and ${perSol.length - 5} more sols with photos.`);
      break;
    }
    lines.push(`  Sol ${field(sol, 'sol', 'N/A')}: ${field(sol, 'total_photos', '0')} photos`);
    lines.push(`    Cameras: ${listField(sol, 'cameras').map(pythonStr).join(', ')}`);
  }
  return joinReferenceLines(lines);
}

function formatExoplanets(data: unknown[]): string {
  if (data.length === 0) return 'No exoplanet data found for the specified query.';
  const lines = [data.length > 10 ? `Found ${data.length} entries. Showing the first 10:` : `Found ${data.length} entries:`];
  for (const entry of data.slice(0, 10)) {
    const details: string[] = [];
    let shown = 0;
    for (const [key, value] of Object.entries(entry && typeof entry === 'object' ? entry : {})) {
      if (shown >= 8) {
        details.push('  ... (more fields exist)');
        break;
      }
      if (value !== null && value !== '') {
        details.push(`  ${key}: ${pythonStr(value)}`);
        shown += 1;
      }
    }
    if (details.length > 0) lines.push(`n${details.join('n')}`, SEPARATOR);
    else lines.push(`nEntry found, but no displayable data (ID might be ${field(entry, 'id', 'N/A')}).`, SEPARATOR);
  }
  return joinReferenceLines(lines);
}

async function queryExoplanets(api: NasaApi, args: Record<string, unknown>) {
  const format = String(args.format ?? 'json');
  const params: QueryParams = { table: String(args.table ?? 'exoplanets'), format };
  if (args.query) params.where = String(args.query);
  const answer = await api.exoplanet(params);
  if (answer.status >= 400) return errorResult(`Error: Exoplanet Archive returned HTTP status ${answer.status}. Response: ${pythonSlice(answer.text, 500)}`);
  const upstream = 'exoplanetarchive.ipac.caltech.edu';
  if (format === 'json' && answer.contentType.includes('application/json')) {
    const data = parseJsonText(
      { text: answer.text, upstream },
      { lossless: true, describe: ({ text }) => `Error: Failed to decode JSON response from Exoplanet Archive. Response text: ${pythonSlice(text, 500)}` },
    );
    if (!Array.isArray(data)) throw unexpectedFormat('Received unexpected JSON data format from Exoplanet Archive.');
    return textResult(formatExoplanets(data));
  }
  if (format !== 'json' && ['text/', 'application/xml', 'application/csv'].some((type) => answer.contentType.includes(type))) {
    const label = format.toUpperCase();
    if (pythonLength(answer.text) > 2000) return textResult(`Received ${label} data (truncated):n${pythonSlice(answer.text, 2000)}n... (response truncated)`);
    return textResult(`Received ${label} data:n${answer.text}`);
  }
  throw new UpstreamError(
    'upstream_bad_response',
    `Error: Exoplanet Archive returned unexpected content type '${answer.contentType}'. Response text: ${pythonSlice(answer.text, 500)}`,
    { upstream },
  );
}

export const marsExoplanetTools: NasaTool[] = [
  {
    name: 'get_exoplanet_data',
    description:
      'Query NASA Exoplanet Archive for exoplanet or related catalog data.\n\nArgs:\n  query (str, optional): Filter expression using Exoplanet Archive syntax.\n  table (str): Target table name, such as "exoplanets" or "cumulative".\n  format (str): Response format, e.g., "json", "csv", "xml", or "ipac".\n\nReturns:\n  text (str): Parsed JSON summary or truncated raw text for non-JSON formats.',
    shape: { query: z.string().optional(), table: z.string().default('exoplanets'), format: z.string().default('json') },
    run: queryExoplanets,
  },
  {
    name: 'get_mars_rover_photos',
    description:
      'Get photos from a Mars rover by sol or Earth date.\n\nArgs:\n  rover_name (str): Rover name, such as "curiosity", "opportunity", or "spirit".\n  sol (int, optional): Martian sol number since landing.\n  earth_date (str, optional): Earth date in YYYY-MM-DD format.\n  camera (str, optional): Camera code filter (for example FHAZ or NAVCAM).\n  page (int): Results page index (25 photos per page).\n\nReturns:\n  text (str): Formatted list of photo metadata and image URLs.',
    shape: {
      rover_name: z.string(),
      sol: z.number().int().optional(),
      earth_date: z.string().optional(),
      camera: z.string().optional(),
      page: z.number().int().default(1),
    },
    run: async (api, args) => {
      const target = photosTarget(args);
      if (typeof target === 'string') return errorResult(target);
      const { rover, params, criteria } = target;
      const outcome = textOutcome(
        await api.get(`/mars-photos/api/v1/rovers/${rover}/photos`, params),
        `Could not retrieve Mars Rover photos for ${rover} due to a connection error.`,
      );
      if ('result' in outcome) return outcome.result;
      const photos = pythonGet(outcome.data, 'photos', undefined);
      if (!Array.isArray(photos)) throw unexpectedFormat('Received unexpected data format from Mars Rover Photos API.');
      if (photos.length === 0) return textResult(`No photos found for rover '${rover}' with criteria: ${criteria}, page ${String(params.page)}.`);
      return textResult(formatPhotos(photos, rover, Number(params.page)));
    },
  },
  {
    name: 'get_mars_rover_manifest',
    description:
      'Get mission manifest metadata for a Mars rover.\n\nArgs:\n  rover_name (str): Rover name, such as "curiosity", "opportunity", or "spirit".\n\nReturns:\n  text (str): Summary of mission dates, status, and photo counts per sol.',
    shape: { rover_name: z.string() },
    run: async (api, args) => {
      const rover = String(args.rover_name).toLowerCase();
      if (!roverCameras[rover]) return errorResult(invalidRover);
      const outcome = textOutcome(
        await api.get(`/mars-photos/api/v1/manifests/${rover}`),
        `Could not retrieve mission manifest for ${rover} due to a connection error.`,
      );
      if ('result' in outcome) return outcome.result;
      const manifest = pythonGet(outcome.data, 'photo_manifest', undefined);
      if (manifest === undefined) throw unexpectedFormat('Received unexpected data format from Mars Rover Manifest API.');
      return textResult(formatManifest(manifest));
    },
  },
];
