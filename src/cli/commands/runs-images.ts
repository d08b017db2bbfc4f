// `m3 runs images <run-id>`: the image-delivery audit of a run (src/store/image-audit.ts): how many
// images each model request carried, tool-produced images with the request that first carried
// them and their size, and every image replaced or dropped with the reason.
import type { ImageDelivery } from '../../core/image-delivery.js';
import type { ImageAudit } from '../../store/index.js';

/** `640x480 image/png`, or `size unknown` for an image dropped before anything decoded it. */
function sizeOf(image: Pick<ImageDelivery, 'width' | 'height' | 'mediaType'>): string {
  const size = image.width > 0 && image.height > 0 ? `${image.width}x${image.height}` : 'size unknown';
  return image.mediaType ? `${size} ${image.mediaType}` : size;
}

/** The one-line summary `m3 runs show` and `m3 runs images` print. */
export function imageAuditLine(audit: ImageAudit): string {
  const { task, tool } = audit.entries;
  const reasons = Object.entries(audit.reasons).map(([reason, count]) => `${count} ${reason}`);
  return (
    `images: ${audit.toolImages.length} tool image(s) produced; over ${audit.requests} request(s): ` +
    `${task.sent + tool.sent} sent (${task.sent} task, ${tool.sent} tool, ${audit.bytesSent} bytes), ` +
    `${task.placeholder + tool.placeholder} placeholder(s), ${task.dropped + tool.dropped} dropped` +
    (reasons.length > 0 ? ` (${reasons.join(', ')})` : '') +
    (audit.taskImagesNotLoaded.length > 0 ? `; ${audit.taskImagesNotLoaded.length} attempt(s) ended before any request: task image not loaded` : '')
  );
}

export function printImageAudit(audit: ImageAudit): void {
  const lines = [`${audit.runId}: ${imageAuditLine(audit)}`];
  if (audit.toolImages.length > 0) lines.push('tool images (first request that carried each):');
  for (const image of audit.toolImages) {
    lines.push(
      `  ${image.taskId} attempt ${image.attempt} ${image.tool} (call ${image.callId}): ${sizeOf(image)}, ` +
        `${image.bytes} bytes, ${image.status}${image.reason ? ` (${image.reason})` : ''}, first in request ${image.firstModelCallId} (round ${image.round})`,
    );
  }
  const withheld = audit.perRequest.flatMap((request) => request.images.filter((image) => image.status !== 'sent').map((image) => ({ request, image })));
  if (withheld.length > 0) lines.push('replaced or dropped:');
  for (const { request, image } of withheld) {
    lines.push(
      `  request ${request.modelCallId} (${request.taskId} round ${request.round} ${request.purpose}): ${image.origin} image ${image.source} ` +
        `${image.width > 0 && image.height > 0 ? `${image.width}x${image.height}` : 'size unknown'} ${image.status}` +
        `${image.callId ? ` (call ${image.callId} ${image.tool ?? ''})` : ''}: ${image.reason ?? 'no reason recorded'}`,
    );
  }
  if (audit.taskImagesNotLoaded.length > 0) lines.push('task images never sent (the attempt ended before its first request):');
  for (const failed of audit.taskImagesNotLoaded) lines.push(`  ${failed.taskId} attempt ${failed.attempt} ${failed.errorCode}: ${failed.message}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
