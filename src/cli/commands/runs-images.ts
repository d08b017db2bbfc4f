// `m3 runs images <run-id>`: the image-delivery audit of a run (src/store/image-audit.ts), short:
// the totals, the replaced and dropped entries counted per kind of reason (placeholders counted,
// never listed: an offline run has one per task image), then one line per dropped image (each
// distinct image once, not once per request that repeated it). `--json` prints every detail:
// per request, every image with its size and reason, and each tool image's first request.
import type { ImageDelivery } from '../../core/image-delivery.js';
import type { ImageAudit } from '../../store/index.js';

/** `640x480 image/png`, or `size unknown` for an image dropped before anything decoded it. */
function sizeOf(image: Pick<ImageDelivery, 'width' | 'height' | 'mediaType'>): string {
  const size = image.width > 0 && image.height > 0 ? `${image.width}x${image.height}` : 'size unknown';
  return image.mediaType ? `${size} ${image.mediaType}` : size;
}

/** A reason without what varies per image (a file name, a decoder's message), so reasons can be counted. */
function reasonKind(reason: string | undefined): string {
  if (!reason) return 'no reason recorded';
  if (reason.startsWith('missing task image ')) return 'missing task image: --placeholder-images stand-in';
  const colon = reason.indexOf(': ');
  return colon > 0 ? reason.slice(0, colon) : reason;
}

/** "<count> <kind>" per kind of reason among the entries of one status, most frequent first. */
function reasonCounts(audit: ImageAudit, status: 'placeholder' | 'dropped'): string[] {
  const counts = new Map<string, number>();
  for (const request of audit.perRequest) {
    for (const image of request.images) if (image.status === status) counts.set(reasonKind(image.reason), (counts.get(reasonKind(image.reason)) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([kind, count]) => `${count} ${kind}`);
}

/** The one-line summary `m3 runs show` and `m3 runs images` print (entries over all requests; reasons grouped by kind). */
export function imageAuditLine(audit: ImageAudit): string {
  const { task, tool } = audit.entries;
  const placeholders = reasonCounts(audit, 'placeholder');
  const dropped = reasonCounts(audit, 'dropped');
  return (
    `images: ${audit.toolImages.length} tool image(s) produced; over ${audit.requests} request(s): ` +
    `${task.sent + tool.sent} sent (${task.sent} task, ${tool.sent} tool, ${audit.bytesSent} bytes), ` +
    `${task.placeholder + tool.placeholder} placeholder(s)${placeholders.length > 0 ? ` (${placeholders.join(', ')})` : ''}, ` +
    `${task.dropped + tool.dropped} dropped${dropped.length > 0 ? ` (${dropped.join(', ')})` : ''}` +
    (audit.taskImagesNotLoaded.length > 0 ? `; ${audit.taskImagesNotLoaded.length} attempt(s) ended before any request: task image not loaded` : '')
  );
}

/** Each dropped image once: tool images by call and position, task images by attempt and source. */
function droppedImages(audit: ImageAudit): string[] {
  const lines = audit.toolImages
    .filter((image) => image.status === 'dropped')
    .map(
      (image) =>
        `  ${image.taskId} attempt ${image.attempt} ${image.tool} (call ${image.callId}): ${image.source} ${sizeOf(image)}: ${image.reason ?? 'no reason recorded'}`,
    );
  const seen = new Set<string>();
  for (const request of audit.perRequest) {
    for (const image of request.images) {
      const key = `${request.taskId}#${request.attempt}#${image.source}`;
      if (image.origin !== 'task' || image.status !== 'dropped' || seen.has(key)) continue;
      seen.add(key);
      lines.push(`  ${request.taskId} attempt ${request.attempt} task image ${image.source} ${sizeOf(image)}: ${image.reason ?? 'no reason recorded'}`);
    }
  }
  return lines;
}

export function printImageAudit(audit: ImageAudit): void {
  const lines = [`${audit.runId}: ${imageAuditLine(audit)}`];
  const dropped = droppedImages(audit);
  if (dropped.length > 0) lines.push('dropped images (each once; placeholders are counted above, not listed; --json for every request):', ...dropped);
  if (audit.taskImagesNotLoaded.length > 0) lines.push('task images never sent (the attempt ended before its first request):');
  for (const failed of audit.taskImagesNotLoaded) lines.push(`  ${failed.taskId} attempt ${failed.attempt} ${failed.errorCode}: ${failed.message}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
