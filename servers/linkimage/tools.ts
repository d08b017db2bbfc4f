// The reference linkimage-mcp server's one tool (the reference project's servers/linkimage_mcp.py): the photo id of an
// Unsplash page URL, its metadata from the Unsplash API (GET /photos/:id), the full-size image
// downloaded into the task workspace (the reference wrote ./images/<id>.jpg) and returned as
// image content. The text keeps the reference's json.dumps layout: message, image_url, author,
// saved_path. The access key goes in the Authorization header ("Client-ID <key>", as Unsplash
// documents) rather than the URL, and the download is reported to Unsplash's download_location
// as its API guidelines require.
// URLs the API answer names go through overrides (named-url.ts): `urls.full` on
// images.unsplash.com through M3_UPSTREAM_UNSPLASH_IMAGES_URL, `download_location` on
// api.unsplash.com through M3_UPSTREAM_UNSPLASH_URL; the key goes only to the API's origin, and
// a named URL on a non-public address is refused (servers/shared/http-destination.ts). A refused
// key, a rate limit or a missing photo keep the reference's words ("Failed to fetch photo
// metadata. HTTP <status>") and stay typed for the fallback layer where they are infrastructure.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';
import { namedRequest } from '../shared/named-url.js';
import { registerKeyedTool } from '../shared/keyed-tool.js';
import { pythonJsonDumps } from '../shared/python-format.js';
import { errorResult, textResult, upstreamErrorResult } from '../shared/tool-result.js';
import { UpstreamClientError, UpstreamError, requireCredential } from '../shared/upstream-error.js';
import { saveWorkspaceImage } from '../shared/workspace-image.js';

const SERVER = 'linkimage-mcp';
const KEY_NAMES = ['UNSPLASH_ACCESS_KEY'] as const;
const http = createHttpClient({ server: 'linkimage' });
const maxImageBytes = 40 * 1024 * 1024;

/** The id is the page URL's last path segment, after the slug ("<slug>-<11-character id>"). */
function photoIdOf(url: string): string {
  const segment =
    url
      .trim()
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .at(-1) ?? '';
  return segment.length > 12 && segment.at(-12) === '-' ? segment.slice(-11) : (segment.split('-').at(-1) ?? '');
}

interface Photo {
  urls?: { full?: string };
  user?: { name?: string };
  links?: { download_location?: string };
}

export function registerLinkImageTools(server: McpServer): void {
  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'fetch_unsplash_image',
      description:
        'Download the main image from an Unsplash photo page using the official API (saved into the task workspace and returned as an image).\nArgs:\n  url (str): Full Unsplash photo URL for the target image.\nReturns:\n  result (str): JSON string describing download status, image URL, author, and saved path.',
      shape: { url: z.string() },
    },
    async ({ url }, extra) => {
      const id = photoIdOf(url);
      if (!id) return errorResult(pythonJsonDumps({ error: 'Exception occurred: No photo URL provided.' }));
      const headers = { authorization: `Client-ID ${requireCredential(KEY_NAMES, SERVER)}`, 'accept-version': 'v1' };
      const api = upstreamBaseUrl('M3_UPSTREAM_UNSPLASH_URL', 'https://api.unsplash.com');
      let photo: Photo;
      try {
        photo = (await http.getJson<Photo>(`${api}/photos/${encodeURIComponent(id)}`, { headers })).body ?? {};
      } catch (error) {
        const text = (status: number) => pythonJsonDumps({ error: `Failed to fetch photo metadata. HTTP ${status}` });
        if (error instanceof UpstreamClientError) return errorResult(text(error.status));
        if (error instanceof UpstreamError && error.status !== undefined) return upstreamErrorResult(error, text(error.status));
        throw error;
      }
      const imageUrl = photo.urls?.full;
      const author = photo.user?.name;
      if (!imageUrl || author === undefined)
        return errorResult(pythonJsonDumps({ error: `Exception occurred: the metadata of photo ${id} has no urls.full or user.name` }));
      const image = namedRequest(imageUrl, [{ origin: 'https://images.unsplash.com', env: 'M3_UPSTREAM_UNSPLASH_IMAGES_URL' }], api);
      const bytes = (await http.getBytes(image.url, { maxBytes: maxImageBytes, namedBy: image.namedBy })).body;
      // Prefixed: ids may start with "_" or "-", which safe file names drop.
      const saved = await saveWorkspaceImage(extra, `unsplash_${id}`, bytes, new URL(imageUrl).hostname);
      if (photo.links?.download_location) {
        // Unsplash counts downloads through this endpoint; failing to report one does not fail the tool.
        const ping = namedRequest(photo.links.download_location, [{ origin: 'https://api.unsplash.com', env: 'M3_UPSTREAM_UNSPLASH_URL' }], api);
        await http.getJson(ping.url, { headers, namedBy: ping.namedBy }).catch(() => undefined);
      }
      const result = { message: `Downloaded '${author}' photo successfully.`, image_url: imageUrl, author, saved_path: saved.file };
      return textResult(pythonJsonDumps(result, { ensureAscii: false }), [{ data: saved.data, mimeType: saved.mimeType }]);
    },
  );
}
