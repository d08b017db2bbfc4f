// The google-maps tools that yield images: Static Maps, Street View Static and Place Photos.
// The reference only built a key-bearing URL (static maps, street view) or returned a data URL
// (photos); here the image is fetched, saved into the task workspace and returned as image
// content, so the agent loop shows it to the model. The text part keeps the reference's
// `image_url` (without the key, which must not leave the server) plus where the file went.
import { createHash } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { fastMcpJsonResult } from '../shared/python-format.js';
import type { ToolExtra } from '../shared/keyed-tool.js';
import { namedRequest } from '../shared/named-url.js';
import { saveWorkspaceImage } from '../shared/workspace-image.js';
import { callGoogle } from '../shared/google-call.js';
import { apiKey, base, defineTool, http, v1Headers } from './google-api.js';

const maxImageBytes = 15 * 1024 * 1024;

type Query = Record<string, string | number | string[]>;

function publicUrl(endpoint: string, query: Query): string {
  const url = new URL(endpoint);
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url.href;
}

/** Fetches a keyed image endpoint, saves the image, answers {image_url, saved_path, mime_type, bytes}. */
async function keyedImage(tool: string, stem: string, endpoint: string, query: Query, extra: ToolExtra) {
  const image_url = publicUrl(endpoint, query);
  const bytes = await callGoogle(tool, endpoint, () => http.getBytes(endpoint, { query: { ...query, key: apiKey() }, maxBytes: maxImageBytes }));
  const digest = createHash('sha1').update(image_url).digest('hex').slice(0, 10);
  const saved = await saveWorkspaceImage(extra, `${stem}_${digest}`, bytes, new URL(endpoint).hostname);
  return fastMcpJsonResult({ image_url, saved_path: saved.file, mime_type: saved.mimeType, bytes: saved.bytes }, [
    { data: saved.data, mimeType: saved.mimeType },
  ]);
}

const photoResource = /^places\/[^/?#]+\/photos\/[^/?#]+$/;

export function registerImageTools(server: McpServer): void {
  defineTool(
    server,
    {
      name: 'static_map',
      description:
        'Fetch a Google Static Maps image (saved into the task workspace and returned as an image).\nArgs:\n  center (Optional[str]): Map center as address or "lat,lng".\n  zoom (Optional[int]): Map zoom level.\n  size (str): Image size string such as "640x640".\n  markers (Optional[List[str]]): Optional marker parameter strings.\n  path (Optional[str]): Optional path parameter string.\n  scale (int): Scale factor for higher resolution.\n  maptype (str): Map type such as "roadmap".\nReturns:\n  data (Dict[str, Any]): image_url (without the key), saved_path, mime_type and bytes, plus the image.',
      shape: {
        center: z.string().nullish(),
        zoom: z.number().int().nullish(),
        size: z.string().default('640x640'),
        markers: z.array(z.string()).nullish(),
        path: z.string().nullish(),
        scale: z.number().int().default(2),
        maptype: z.string().default('roadmap'),
      },
    },
    async ({ center, zoom, size, markers, path, scale, maptype }, extra) => {
      const query: Query = { size, scale, maptype };
      if (center != null) query.center = center;
      if (zoom != null) query.zoom = zoom;
      // Static Maps reads repeated `markers` parameters (the reference named them markers0, markers1, ...).
      if (markers?.length) query.markers = markers;
      if (path) query.path = path;
      return keyedImage('static_map', 'static_map', `${base.maps()}/maps/api/staticmap`, query, extra);
    },
  );

  defineTool(
    server,
    {
      name: 'street_view_image',
      description:
        'Fetch a Street View Static image (saved into the task workspace and returned as an image).\nArgs:\n  location (str): Address or "lat,lng" of the panorama location.\n  size (str): Image size string such as "640x640".\n  heading (Optional[int]): Optional camera heading.\n  pitch (Optional[int]): Optional camera pitch.\n  fov (Optional[int]): Optional field of view.\nReturns:\n  data (Dict[str, Any]): image_url (without the key), saved_path, mime_type and bytes, plus the image.',
      shape: {
        location: z.string(),
        size: z.string().default('640x640'),
        heading: z.number().int().nullish(),
        pitch: z.number().int().nullish(),
        fov: z.number().int().nullish(),
      },
    },
    async ({ location, size, heading, pitch, fov }, extra) => {
      const query: Query = { location, size };
      if (heading != null) query.heading = heading;
      if (pitch != null) query.pitch = pitch;
      if (fov != null) query.fov = fov;
      return keyedImage('street_view_image', 'street_view', `${base.maps()}/maps/api/streetview`, query, extra);
    },
  );

  defineTool(
    server,
    {
      name: 'place_photo_media',
      description:
        'Download a place photo (saved into the task workspace and returned as an image).\nArgs:\n  photo_resource (str): Places photo resource path (places/<id>/photos/<ref>).\n  maxWidthPx (Optional[int]): Optional maximum image width in pixels.\n  maxHeightPx (Optional[int]): Optional maximum image height in pixels.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, query parameters, and the saved photo, plus the image.',
      shape: { photo_resource: z.string(), maxWidthPx: z.number().int().nullish(), maxHeightPx: z.number().int().nullish() },
    },
    async ({ photo_resource, maxWidthPx, maxHeightPx }, extra) => {
      const resource = photo_resource.replace(/^\/+|\/media$/g, '');
      if (!photoResource.test(resource)) throw new Error(`photo_resource must look like "places/<place id>/photos/<photo reference>", got "${photo_resource}"`);
      const endpoint = `${base.places()}/v1/${resource}/media`;
      // The API needs at least one bound; without one the reference's request was refused.
      const request: Record<string, number> = { ...(maxWidthPx ? { maxWidthPx } : {}), ...(maxHeightPx ? { maxHeightPx } : {}) };
      if (!maxWidthPx && !maxHeightPx) request.maxWidthPx = 1600;
      // skipHttpRedirect: the photo URI comes back as JSON and is fetched without the key.
      const media = await callGoogle('place_photo_media', endpoint, () =>
        http.getJson<{ photoUri?: string }>(endpoint, { query: { ...request, skipHttpRedirect: 'true' }, headers: v1Headers() }),
      );
      if (!media?.photoUri) throw new Error(`Error executing tool place_photo_media: ${new URL(endpoint).hostname} returned no photoUri for ${resource}`);
      // photoUri is named by the API: through M3_UPSTREAM_GOOGLE_PHOTOS_URL when set, never to a non-public address.
      const photo = namedRequest(media.photoUri, [{ origin: 'https://lh3.googleusercontent.com', env: 'M3_UPSTREAM_GOOGLE_PHOTOS_URL' }], base.places());
      const bytes = (await http.getBytes(photo.url, { maxBytes: maxImageBytes, namedBy: photo.namedBy })).body;
      const saved = await saveWorkspaceImage(extra, `place_photo_${resource.split('/').at(-1) ?? 'photo'}`, bytes, new URL(media.photoUri).hostname);
      const response = { content_type: saved.mimeType, photoUri: media.photoUri, saved_path: saved.file, bytes: saved.bytes };
      return fastMcpJsonResult({ endpoint, request, response }, [{ data: saved.data, mimeType: saved.mimeType }]);
    },
  );
}
