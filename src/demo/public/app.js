// @ts-check
// The demo page: loads the configuration, opens (or resumes) a session, streams its events
// into the conversation, and wires the composer, the settings and the tool playground.
import { ApiError, api } from './api.js';
import { createComposer } from './composer.js';
import { byId, errorText, h } from './dom.js';
import { createPlayground } from './playground.js';
import { Conversation } from './timeline.js';

/** @typedef {import('./dom.js').Json} Json */

const sessionKey = 'm3demo.session';
/** @type {{ config: any, sessionId: string | null, images: Map<string, any>, running: any, events: EventSource | null }} */
const state = { config: null, sessionId: null, images: new Map(), running: null, events: null };

/** The open session's id; every action of the page runs after main() opened one. */
function currentSession() {
  if (state.sessionId === null) throw new Error('no demo session is open yet');
  return state.sessionId;
}

function showGlobalError(/** @type {string} */ message) {
  const banner = byId('global-error');
  banner.textContent = message;
  banner.hidden = !message;
}

function rememberImages(/** @type {Json[]} */ images) {
  for (const image of images ?? []) state.images.set(image.id, image);
  playground?.refreshPickers();
}

function selectedServers() {
  return [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#servers input[type=checkbox]:checked'))].map((box) => box.value);
}

function usableModel() {
  const select = /** @type {HTMLSelectElement} */ (byId('model'));
  const model = state.config.models.find((/** @type {Json} */ entry) => entry.id === select.value);
  if (!model) return { ok: false, reason: state.config.note ?? 'No model is configured' };
  if (!model.available) return { ok: false, reason: `${model.id} cannot be used: ${model.error}` };
  return { ok: true, model: model.id };
}

function renderSettings(/** @type {Json} */ config) {
  const select = /** @type {HTMLSelectElement} */ (byId('model'));
  select.replaceChildren(
    ...config.models.map((/** @type {Json} */ model) =>
      h('option', { value: model.id, disabled: !model.available, title: model.error ?? '' }, model.available ? model.id : `${model.id} (unavailable)`),
    ),
  );
  if (config.models.length === 0) select.append(h('option', { value: '' }, 'no model configured'));
  const firstUsable = config.models.find((/** @type {Json} */ model) => model.available);
  if (firstUsable) select.value = firstUsable.id;
  const unavailable = config.models.filter((/** @type {Json} */ model) => !model.available).map((/** @type {Json} */ model) => `${model.id}: ${model.error}`);
  const note = [config.note, ...unavailable].filter(Boolean).join('\n');
  const banner = byId('model-note');
  banner.textContent = note;
  banner.hidden = !note;
  const loop = config.loop;
  byId('loop-info').textContent =
    `Up to ${loop.maxStep} rounds, ${loop.maxConcurrent} parallel calls per round${loop.topTools > 0 ? `, the ${loop.topTools} best-ranked tools per message` : ', every tool'}.`;
  byId('all-tools-label').hidden = !(loop.topTools > 0);
  byId('servers').replaceChildren(
    ...config.servers.map((/** @type {Json} */ server) =>
      h(
        'li',
        {},
        h(
          'label',
          { title: server.error ?? '' },
          h('input', { type: 'checkbox', value: server.name, checked: server.state === 'ready', disabled: server.state !== 'ready' }),
          server.name,
          server.state === 'ready' ? h('span', { class: 'count' }, `${server.toolCount} tools`) : h('span', { class: 'failed count' }, server.state),
        ),
      ),
    ),
  );
  select.addEventListener('change', () => composer.refresh());
  byId('servers-toggle-all').addEventListener('click', () => {
    const boxes = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#servers input[type=checkbox]:not(:disabled)'))];
    const anyOff = boxes.some((box) => !box.checked);
    for (const box of boxes) box.checked = anyOff;
  });
}

function handleEvent(/** @type {Json} */ event) {
  if (event.type === 'user_message') {
    rememberImages(event.images);
    state.running = event.episodeId;
    composer.setRunning(event.episodeId);
  }
  if (event.type === 'tool_call_end') rememberImages(event.images);
  if (event.type === 'episode_end' && state.running === event.episodeId) {
    state.running = null;
    composer.setRunning(null);
  }
  conversation.handle(event);
}

function connectEvents(/** @type {string} */ sessionId) {
  state.events?.close();
  // after=0 replays the session's buffered events, so a reload shows the conversation again.
  const source = new EventSource(`/api/sessions/${encodeURIComponent(sessionId)}/events?after=0`);
  source.onmessage = (message) => {
    try {
      handleEvent(JSON.parse(message.data));
    } catch (error) {
      showGlobalError(`Could not show an event: ${errorText(error)}`);
    }
  };
  source.onopen = () => showGlobalError('');
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED)
      showGlobalError('The live connection to the demo server was lost. Reload the page once the server is running again.');
    else showGlobalError('Reconnecting to the demo server…');
  };
  state.events = source;
}

async function openSession(/** @type {boolean} */ fresh) {
  let session = null;
  const remembered = fresh ? null : localStorage.getItem(sessionKey);
  if (remembered) {
    try {
      session = await api.session(remembered);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
    }
  }
  session ??= await api.createSession();
  localStorage.setItem(sessionKey, session.id);
  state.sessionId = session.id;
  state.images = new Map();
  state.running = null;
  conversation.clear();
  composer.setRunning(null);
  rememberImages(session.images);
  byId('session-id').textContent = session.id;
  connectEvents(session.id);
}

function setupTabs() {
  const tabs = [...document.querySelectorAll('[role=tab]')];
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      for (const other of tabs) {
        const selected = other === tab;
        other.setAttribute('aria-selected', String(selected));
        byId(other.getAttribute('aria-controls') ?? '').hidden = !selected;
      }
    });
  }
}

async function upload(/** @type {File} */ file) {
  const image = await api.uploadImage(currentSession(), file);
  rememberImages([image]);
  return image;
}

/** The bundled photos as one-click samples: the server adds the chosen one to the session. */
function renderSamples(/** @type {Json[]} */ samples) {
  const strip = byId('samples');
  strip.hidden = samples.length === 0;
  const pick = async (/** @type {Json} */ sample) => {
    try {
      const image = await api.addSample(currentSession(), sample.name);
      rememberImages([image]);
      composer.addImage(image, sample.name);
    } catch (error) {
      composer.showError(`${sample.name}: ${errorText(error)}`);
    }
  };
  strip.replaceChildren(
    h('span', { class: 'muted small' }, 'Samples:'),
    ...samples.map((/** @type {Json} */ sample) =>
      h(
        'button',
        { type: 'button', class: 'sample', title: `Attach ${sample.name}`, dataset: { sample: sample.name }, onclick: () => void pick(sample) },
        h('img', { src: sample.url, alt: `sample ${sample.name}`, loading: 'lazy' }),
      ),
    ),
  );
}

/** @type {ReturnType<typeof createComposer>} */
let composer;
/** @type {Conversation} */
let conversation;
/** @type {ReturnType<typeof createPlayground> | undefined} */
let playground;

async function main() {
  setupTabs();
  const [config, catalog, samples] = await Promise.all([api.config(), api.tools(), api.samples()]);
  state.config = config;
  conversation = new Conversation(byId('conversation'), { emptyState: byId('empty-state') });
  composer = createComposer({
    limits: config.limits,
    upload,
    canSend: usableModel,
    send: (/** @type {string} */ text, /** @type {string[]} */ imageIds) =>
      api.sendMessage(currentSession(), {
        text,
        model: usableModel().model,
        servers: selectedServers(),
        imageIds,
        allTools: /** @type {HTMLInputElement} */ (byId('all-tools')).checked,
      }),
    cancel: (/** @type {string | null} */ episodeId) => api.cancel(currentSession(), episodeId ?? undefined),
  });
  renderSettings(config);
  playground = createPlayground({
    tools: catalog.tools,
    sessionId: currentSession,
    images: () => [...state.images.values()],
    onImages: rememberImages,
    upload,
  });
  renderSamples(samples.samples);
  byId('new-session').addEventListener('click', () => openSession(true).catch((error) => showGlobalError(error.message)));
  await openSession(false);
  composer.refresh();
}

main().catch((error) => showGlobalError(`The demo could not start: ${error.message}`));
