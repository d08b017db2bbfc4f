// @ts-check
// The playground's view of the chosen server beyond its tools, as MCP Inspector shows it: its
// resources (read one: text, an image, or a note of the bytes), its prompts (fill in the
// arguments, see the messages) and the session's raw JSON-RPC log. A server that did not
// declare resources or prompts says so in place of a list.
import { api } from './api.js';
import { append, clear, errorText, formatBytes, h, prettyJson } from './dom.js';
import { collapsible, imageGrid } from './widgets.js';

/** @typedef {import('./dom.js').Json} Json */

/** @param {string} id An input or select of the panel. */
const byId = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** One content item of a resource or a prompt message. */
function contentView(/** @type {Json} */ item, /** @type {(images: Json[]) => void} */ onImages) {
  if (item.image) {
    onImages([item.image]);
    return imageGrid([item.image]);
  }
  if (item.bytes !== undefined) return h('p', { class: 'muted small' }, `binary content, ${item.mimeType ?? 'unknown type'}, ${formatBytes(item.bytes)}`);
  if (item.text !== undefined) return collapsible(item.text, { limit: 4000, label: 'text' });
  return h('p', { class: 'muted small' }, `${item.type ?? 'link'}: ${item.uri ?? ''}`);
}

function declaredNote(/** @type {string} */ kind, /** @type {string} */ server) {
  return h('p', { class: 'muted small not-declared' }, `${server} does not declare ${kind} (the MCP capability "${kind}"), so there is nothing to list.`);
}

/** @type {Record<string, string>} */
const arrow = { sent: '→', received: '←' };

function logEntry(/** @type {Json} */ entry) {
  const label = `${arrow[entry.direction]} ${entry.kind}${entry.method ? ` ${entry.method}` : ''}${entry.id !== undefined ? ` #${entry.id}` : ''}`;
  const body = prettyJson(entry.payload);
  return h(
    'li',
    {
      class: `rpc ${entry.direction} ${entry.kind}`,
      dataset: { seq: entry.seq, direction: entry.direction, kind: entry.kind, method: entry.method ?? '', id: entry.id ?? '' },
    },
    h(
      'details',
      { class: 'result' },
      h('summary', {}, h('span', { class: 'muted small' }, entry.at.slice(11, 23)), ` ${label} (${body.length.toLocaleString()} characters)`),
      h('pre', { class: 'result-text' }, body || '(no params)'),
    ),
  );
}

/** @param {{ sessionId: () => string, onImages: (images: Json[]) => void }} options */
export function createServerPanels({ sessionId, onImages }) {
  let server = '';
  /** @type {Json[]} */
  let prompts = [];

  const showError = (/** @type {string} */ id, /** @type {string} */ message) => {
    byId(id).textContent = message;
    byId(id).hidden = !message;
  };

  const readResource = async (/** @type {string} */ uri) => {
    showError('pg-resource-error', '');
    try {
      const answer = await api.readResource(server, sessionId(), uri);
      byId('pg-resource-result').replaceChildren(
        h('h3', {}, uri),
        ...answer.contents.map((/** @type {Json} */ item) =>
          h(
            'div',
            { class: 'resource-content', dataset: { uri: item.uri } },
            h('div', { class: 'label muted small' }, item.mimeType ?? ''),
            contentView(item, onImages),
          ),
        ),
      );
    } catch (problem) {
      showError('pg-resource-error', errorText(problem));
    }
    void refreshLog();
  };

  const renderResources = (/** @type {Json} */ overview) => {
    const list = byId('pg-resources');
    if (!overview.resources.declared) return list.replaceChildren(declaredNote('resources', server));
    if (overview.resources.error) return list.replaceChildren(h('p', { class: 'inline-error' }, `resources/list failed: ${overview.resources.error}`));
    if (overview.resources.items.length === 0) return list.replaceChildren(h('p', { class: 'muted small' }, `${server} declares resources but lists none.`));
    list.replaceChildren(
      h(
        'ul',
        { class: 'resource-list' },
        overview.resources.items.map((/** @type {Json} */ resource) =>
          h(
            'li',
            { dataset: { uri: resource.uri } },
            h('button', { type: 'button', class: 'button secondary', onclick: () => void readResource(resource.uri) }, 'Read'),
            ' ',
            h('strong', {}, resource.title ?? resource.name),
            ' ',
            h('code', {}, resource.uri),
            resource.mimeType ? h('span', { class: 'muted small' }, ` ${resource.mimeType}`) : null,
            resource.description ? h('div', { class: 'muted small' }, resource.description) : null,
          ),
        ),
      ),
    );
  };

  const renderPromptForm = () => {
    const prompt = prompts.find((entry) => entry.name === byId('pg-prompt').value);
    byId('pg-prompt-description').textContent = prompt?.description ?? '';
    byId('pg-prompt-form').replaceChildren(
      ...(prompt?.arguments ?? []).map((/** @type {Json} */ argument) =>
        h(
          'label',
          { class: 'field' },
          h('span', { class: argument.required ? 'required' : '' }, argument.name),
          h('input', { type: 'text', id: `prompt-arg-${argument.name}`, name: argument.name, placeholder: argument.description ?? '' }),
        ),
      ),
    );
  };

  const renderPrompts = (/** @type {Json} */ overview) => {
    const declared = overview.prompts.declared && !overview.prompts.error && overview.prompts.items.length > 0;
    prompts = declared ? overview.prompts.items : [];
    byId('pg-prompt-controls').hidden = !declared;
    const note = byId('pg-prompts');
    if (!overview.prompts.declared) note.replaceChildren(declaredNote('prompts', server));
    else if (overview.prompts.error) note.replaceChildren(h('p', { class: 'inline-error' }, `prompts/list failed: ${overview.prompts.error}`));
    else if (!declared) note.replaceChildren(h('p', { class: 'muted small' }, `${server} declares prompts but lists none.`));
    else note.replaceChildren();
    byId('pg-prompt').replaceChildren(...prompts.map((/** @type {Json} */ prompt) => h('option', { value: prompt.name }, prompt.title ?? prompt.name)));
    byId('pg-prompt-result').replaceChildren();
    renderPromptForm();
  };

  const getPrompt = async () => {
    const prompt = prompts.find((entry) => entry.name === byId('pg-prompt').value);
    if (!prompt) return;
    /** @type {Record<string, string>} */
    const args = {};
    for (const argument of prompt.arguments ?? []) {
      const value = byId(`prompt-arg-${argument.name}`).value;
      if (value === '' && argument.required) return showError('pg-prompt-error', `${argument.name} is required`);
      if (value !== '') args[argument.name] = value;
    }
    showError('pg-prompt-error', '');
    try {
      const answer = await api.getPrompt(server, sessionId(), prompt.name, args);
      append(
        clear(byId('pg-prompt-result')),
        answer.description ? h('p', { class: 'muted small' }, answer.description) : null,
        h(
          'ol',
          { class: 'prompt-messages' },
          answer.messages.map((/** @type {Json} */ message) =>
            h('li', { dataset: { role: message.role } }, h('div', { class: 'label muted small' }, message.role), contentView(message, onImages)),
          ),
        ),
      );
    } catch (problem) {
      showError('pg-prompt-error', errorText(problem));
    }
    void refreshLog();
  };

  async function refreshLog() {
    if (!server) return;
    try {
      const log = await api.rpcLog(server, sessionId());
      byId('pg-log-note').textContent = log.kept
        ? `${log.entries.length} of ${log.total} messages of this server session: this chat session's and the shared protocol messages (the newest ${log.maxEntries} are kept; secrets masked, image data elided).`
        : 'This demo keeps no JSON-RPC log.';
      byId('pg-log').replaceChildren(...log.entries.map(logEntry).reverse());
    } catch (problem) {
      byId('pg-log-note').textContent = errorText(problem);
    }
  }

  const select = async (/** @type {string} */ name) => {
    server = name;
    byId('pg-server-name').textContent = name;
    byId('pg-resource-result').replaceChildren();
    if (!name) return;
    try {
      const overview = await api.serverOverview(name);
      if (server !== name) return;
      renderResources(overview);
      renderPrompts(overview);
    } catch (problem) {
      byId('pg-resources').replaceChildren(h('p', { class: 'inline-error' }, errorText(problem)));
    }
    await refreshLog();
  };

  byId('pg-prompt').addEventListener('change', renderPromptForm);
  byId('pg-prompt-get').addEventListener('click', () => void getPrompt());
  byId('pg-prompt-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void getPrompt();
  });
  byId('pg-log-refresh').addEventListener('click', () => void refreshLog());
  return { select, refreshLog };
}
