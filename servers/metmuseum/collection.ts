// The Met Collection API, as the reference metmuseum-mcp server (servers/metmuseum-mcp/src)
// uses it: /departments, /search (q, hasImages, title, departmentId) and /objects/{id}, plus the
// object's primaryImageSmall JPEG. A non-2xx that is not an outage is the model's request and
// is worded as the reference threw it ("HTTP error! status: 404").
// Base URLs: M3_UPSTREAM_MET_COLLECTION_URL (default
// https://collectionapi.metmuseum.org/public/collection/v1) and M3_UPSTREAM_MET_IMAGES_URL
// (replaces the origin https://images.metmuseum.org of image URLs the API returns).
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';
import { upstreamBaseUrl, type HttpClient } from '../shared/http-client.js';
import { namedRequest } from '../shared/named-url.js';
import { UpstreamClientError, UpstreamError } from '../shared/upstream-error.js';

const departmentsSchema = z.object({ departments: z.array(z.object({ departmentId: z.number(), displayName: z.string() }).loose()) }).loose();
const searchSchema = z.object({ total: z.number(), objectIDs: z.array(z.number()).nullable() }).loose();
// Every field optional, as the reference's schema (.partial()) has it; only the ones shown are typed.
const objectSchema = z
  .object({
    title: z.string(),
    artistDisplayName: z.string(),
    artistDisplayBio: z.string(),
    department: z.string(),
    creditLine: z.string(),
    medium: z.string(),
    dimensions: z.string(),
    primaryImage: z.string(),
    primaryImageSmall: z.string(),
    tags: z.array(z.object({ term: z.string() }).partial().loose()).nullable(),
  })
  .partial()
  .loose();

export type MetObject = z.infer<typeof objectSchema>;

/** "HTTP error! status: N": how the reference reported a refused request. */
export class MetRequestError extends Error {
  constructor(status: number) {
    super(`HTTP error! status: ${status}`);
    this.name = 'Error';
  }
}

const collectionBase = () => upstreamBaseUrl('M3_UPSTREAM_MET_COLLECTION_URL', 'https://collectionapi.metmuseum.org/public/collection/v1');

async function getParsed<S extends z.ZodType>(http: HttpClient, url: URL, schema: S, what: string): Promise<z.output<S>> {
  try {
    return (await http.getJson(url.href, { schema, what })).body;
  } catch (error) {
    if (error instanceof UpstreamClientError) throw new MetRequestError(error.status);
    throw error;
  }
}

export async function fetchDepartments(http: HttpClient): Promise<Array<{ departmentId: number; displayName: string }>> {
  return (await getParsed(http, new URL(`${collectionBase()}/departments`), departmentsSchema, 'departments')).departments;
}

export interface SearchOptions {
  q: string;
  hasImages: boolean;
  title: boolean;
  departmentId?: number | undefined;
}

/** The reference's parameters: hasImages only when true, title only when true and hasImages is not, departmentId only when non-zero. */
export async function searchObjects(http: HttpClient, options: SearchOptions): Promise<{ total: number; objectIDs: number[] | null }> {
  const url = new URL(`${collectionBase()}/search`);
  url.searchParams.set('q', options.q);
  if (options.hasImages) url.searchParams.set('hasImages', 'true');
  if (options.title && !options.hasImages) url.searchParams.set('title', 'true');
  if (options.departmentId) url.searchParams.set('departmentId', String(options.departmentId));
  return getParsed(http, url, searchSchema, 'search');
}

export async function fetchObject(http: HttpClient, objectId: number): Promise<MetObject> {
  return getParsed(http, new URL(`${collectionBase()}/objects/${objectId}`), objectSchema, 'object');
}

export const imageTypes: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/**
 * The bytes of an object image (at most 15 MiB). A refused image URL fails the call as the
 * reference's download did; bytes that are not an image are a broken upstream answer.
 */
export async function fetchImage(http: HttpClient, apiUrl: string): Promise<Buffer> {
  // An upstream-named URL: through M3_UPSTREAM_MET_IMAGES_URL when set, never to a non-public address.
  const image = namedRequest(apiUrl, [{ origin: 'https://images.metmuseum.org', env: 'M3_UPSTREAM_MET_IMAGES_URL' }], collectionBase());
  let bytes: Buffer;
  try {
    bytes = (await http.getBytes(image.url, { maxBytes: 15 * 1024 * 1024, namedBy: image.namedBy })).body;
  } catch (error) {
    if (error instanceof UpstreamClientError) throw new MetRequestError(error.status);
    throw error;
  }
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !imageTypes.includes(type.mime)) {
    throw new UpstreamError(
      'upstream_bad_response',
      `${new URL(image.url).hostname}: the object image is ${type?.mime ?? 'not a known file type'} (${bytes.length} bytes), not an image`,
      { upstream: new URL(image.url).hostname },
    );
  }
  return bytes;
}
