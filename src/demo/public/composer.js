// @ts-check
// The message composer: images by drag-and-drop or picker (uploaded at once, so a bad file is
// reported before sending), the text, Send (or Ctrl/Cmd+Enter) and Cancel.
import { byId, errorText, formatBytes, h } from './dom.js';

/** @typedef {import('./dom.js').Json} Json */

/** The raster type of a file from its first bytes, or undefined when it is none the demo accepts. */
async function rasterTypeOf(/** @type {File} */ file) {
  const bytes = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const starts = (/** @type {number[]} */ ...values) => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x42, 0x4d)) return 'image/bmp';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return undefined;
}

/**
 * @param {{
 *   limits: Json,
 *   upload: (file: File) => Promise<Json>,
 *   send: (text: string, imageIds: string[]) => Promise<Json>,
 *   cancel: (episodeId: string | null) => Promise<Json>,
 *   canSend: () => { ok: boolean, reason?: string },
 * }} options
 */
export function createComposer({ limits, upload, send, cancel, canSend }) {
  const form = byId('composer');
  const text = /** @type {HTMLTextAreaElement} */ (byId('message'));
  const dropZone = byId('drop-zone');
  const fileInput = /** @type {HTMLInputElement} */ (byId('file-input'));
  const pendingList = byId('pending-images');
  const error = byId('composer-error');
  const sendButton = /** @type {HTMLButtonElement} */ (byId('send'));
  const cancelButton = /** @type {HTMLButtonElement} */ (byId('cancel'));
  byId('upload-hint').textContent = `Up to ${limits.maxImagesPerMessage} images, ${formatBytes(limits.maxUploadBytes)} each`;
  /** @type {Json[]} */
  let pending = [];
  /** @type {string | null} */
  let running = null;

  const showError = (/** @type {string} */ message) => {
    error.textContent = message;
    error.hidden = !message;
  };

  const refresh = () => {
    const uploading = pending.some((item) => item.status === 'uploading');
    const ready = canSend();
    sendButton.disabled = Boolean(running) || uploading || !ready.ok;
    sendButton.title = running ? 'A message is running' : uploading ? 'Images are still uploading' : ready.ok ? 'Send (Ctrl/⌘+Enter)' : (ready.reason ?? '');
    cancelButton.disabled = !running;
  };

  const renderPending = () => {
    pendingList.replaceChildren(
      ...pending.map((item) =>
        h(
          'div',
          { class: `pending ${item.status}`, title: item.file.name },
          item.preview ? h('img', { src: item.preview, alt: `attachment ${item.file.name}` }) : h('span', { class: 'no-preview' }, item.file.name),
          h('button', { type: 'button', class: 'remove', 'aria-label': `Remove ${item.file.name}`, onclick: () => remove(item) }, '×'),
        ),
      ),
    );
    refresh();
  };

  const remove = (/** @type {Json} */ item) => {
    if (item.preview && !item.sample) URL.revokeObjectURL(item.preview);
    pending = pending.filter((entry) => entry !== item);
    renderPending();
  };

  const addFiles = async (/** @type {Iterable<File>} */ files) => {
    const problems = [];
    for (const file of files) {
      if (pending.length >= limits.maxImagesPerMessage) {
        problems.push(`${file.name}: at most ${limits.maxImagesPerMessage} images per message`);
        continue;
      }
      if (file.size > limits.maxUploadBytes) {
        problems.push(`${file.name} is too large: ${formatBytes(file.size)} (the limit is ${formatBytes(limits.maxUploadBytes)})`);
        continue;
      }
      // The preview's type comes from the bytes, never from the file name or the browser's guess:
      // anything else (e.g. an .svg, which can carry script) gets no blob: URL at all. The server
      // stays the judge of what is accepted.
      const type = await rasterTypeOf(file);
      /** @type {Json} */
      const item = { file, preview: type ? URL.createObjectURL(new Blob([file], { type })) : null, status: 'uploading', image: null };
      pending.push(item);
      renderPending();
      upload(file)
        .then((/** @type {Json} */ image) => {
          item.image = image;
          item.status = 'ready';
        })
        .catch((/** @type {unknown} */ problem) => {
          showError(`${file.name}: ${errorText(problem)}`);
          remove(item);
        })
        .finally(renderPending);
    }
    showError(problems.join('\n'));
  };

  const submit = async () => {
    if (sendButton.disabled) return;
    const message = text.value.trim();
    if (!message) return showError('Write a question first.');
    showError('');
    sendButton.disabled = true;
    try {
      const imageIds = pending.filter((item) => item.image).map((item) => item.image.id);
      const started = await send(message, imageIds);
      running = started.episodeId;
      text.value = '';
      for (const item of pending) if (item.preview && !item.sample) URL.revokeObjectURL(item.preview);
      pending = [];
      renderPending();
    } catch (problem) {
      showError(errorText(problem));
    } finally {
      refresh();
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  });
  cancelButton.addEventListener('click', async () => {
    cancelButton.disabled = true;
    try {
      await cancel(running);
    } catch (problem) {
      showError(`Cancel failed: ${errorText(problem)}`);
      cancelButton.disabled = false;
    }
  });
  fileInput.addEventListener('change', () => {
    const files = [...(fileInput.files ?? [])];
    fileInput.value = '';
    void addFiles(files);
  });
  for (const name of ['dragenter', 'dragover']) {
    dropZone.addEventListener(name, (event) => {
      event.preventDefault();
      dropZone.classList.add('dragging');
    });
  }
  for (const name of ['dragleave', 'drop']) dropZone.addEventListener(name, () => dropZone.classList.remove('dragging'));
  dropZone.addEventListener('drop', (event) => {
    event.preventDefault();
    void addFiles([...(event.dataTransfer?.files ?? [])]);
  });

  /** A sample photo the server already added to the session: pending at once, nothing to upload. */
  const addImage = (/** @type {Json} */ image, /** @type {string} */ name) => {
    if (pending.length >= limits.maxImagesPerMessage) return showError(`${name}: at most ${limits.maxImagesPerMessage} images per message`);
    pending.push({ file: { name }, preview: image.url, status: 'ready', image, sample: true });
    renderPending();
  };

  return {
    addImage,
    setRunning(/** @type {string | null} */ episodeId) {
      running = episodeId;
      refresh();
    },
    refresh,
    showError,
  };
}
