// The image-delivery audit's record: one entry per image a model request carried or was meant to
// carry, as the driver received the request (after every condition decorator), so `m3 audit
// images` can say how many images reached the model, in which request, at what size, and which
// were replaced or dropped and why. Plain shapes; src/media/request-images.ts fills them (from
// the request src/runner/driver-decorators.ts withImageAudit sees), and src/agent/tool-images.ts
// makes the entries of tool images dropped before any request was built.

type ImageDeliveryStatus = 'sent' | 'placeholder' | 'dropped';

export interface ImageDelivery {
  /** `task`: an image of a user turn (the task's own); `tool`: an image a tool call returned. */
  origin: 'task' | 'tool';
  /** The tool call whose result carried the image (tool images only). */
  callId?: string;
  /** The function name of that call (tool images only). */
  tool?: string;
  /** Where the image came from (its file path or tool), as the harness recorded it. */
  source: string;
  /** Pixel size of the image (of the one replaced, for a placeholder or a dropped image; 0 x 0 when never decoded). */
  width: number;
  height: number;
  /** Media type and bytes of what was put into the request (a placeholder's own; 0 when dropped). */
  mediaType: string;
  bytes: number;
  status: ImageDeliveryStatus;
  /**
   * Why the image was replaced or dropped: `condition images-off`, `condition images-dropped`,
   * `the model takes text only`, or, for a tool image dropped before the request was built,
   * `over_per_call_limit`, `outside_allowed_roots`, `file_not_found`, `prepare_failed: <message>`.
   */
  reason?: string;
}
