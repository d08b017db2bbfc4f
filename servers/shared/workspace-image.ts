// Images a web API returns (map tiles, static maps, photos) are saved into the task's workspace
// and returned to the model as MCP image content: one helper so every server names, types and
// places them alike.
import { workspaceOf } from './call-context.js';
import { saveDownload, type SavedFile } from './download.js';
import { UpstreamError } from './upstream-error.js';

/** The image types web APIs answer with; anything else is refused as a bad response. */
const WEB_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export interface WorkspaceImage extends SavedFile {
  data: Buffer;
}

/**
 * Writes the bytes as `<workspace>/<stem>.<ext from the bytes>`. Bytes that are no image (an
 * HTML error page served with 200) are the upstream's failure: upstream_bad_response.
 */
export async function saveWorkspaceImage(extra: { _meta?: unknown } | undefined, stem: string, data: Buffer, upstream: string): Promise<WorkspaceImage> {
  const dir = workspaceOf(extra);
  try {
    return { ...(await saveDownload(dir, stem, data, WEB_IMAGE_TYPES)), data };
  } catch (error) {
    throw new UpstreamError('upstream_bad_response', `${upstream} answered with no image: ${(error as Error).message}`, { upstream });
  }
}
