// @ts-check
// The tool playground tab: server and tool pickers, a form generated from the tool's input
// schema, a direct call through the demo's MCP host, and the result text and images; below,
// the chosen server's resources, prompts and JSON-RPC log (server-panels.js).
import { api } from './api.js';
import { append, byId, clear, errorText, formatMs, h } from './dom.js';
import { collapsible, imageGrid } from './widgets.js';
import { renderSchemaForm } from './schema-form.js';
import { createServerPanels } from './server-panels.js';

/** @typedef {import('./dom.js').Json} Json */

/**
 * @param {{
 *   tools: Json[],
 *   sessionId: () => string,
 *   images: () => Json[],
 *   onImages: (images: Json[]) => void,
 *   upload: (file: File) => Promise<Json>,
 * }} options
 */
export function createPlayground({ tools, sessionId, images, onImages, upload }) {
  const serverSelect = /** @type {HTMLSelectElement} */ (byId('pg-server'));
  const toolSelect = /** @type {HTMLSelectElement} */ (byId('pg-tool'));
  const description = byId('pg-description');
  const form = /** @type {HTMLFormElement} */ (byId('pg-form'));
  const error = byId('pg-error');
  const result = byId('pg-result');
  const callButton = /** @type {HTMLButtonElement} */ (byId('pg-call'));
  const fileInput = /** @type {HTMLInputElement} */ (byId('pg-file-input'));
  let readArguments = () => ({});
  const panels = createServerPanels({ sessionId, onImages });

  const byServer = new Map();
  for (const tool of tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  serverSelect.replaceChildren(...[...byServer.keys()].map((server) => h('option', { value: server }, `${server} (${byServer.get(server).length})`)));
  if (byServer.size === 0) serverSelect.append(h('option', { value: '' }, 'no MCP server is running'));

  const showError = (/** @type {string} */ message) => {
    error.textContent = message;
    error.hidden = !message;
  };

  const selectedTool = () => tools.find((/** @type {Json} */ tool) => tool.name === toolSelect.value);

  const renderForm = () => {
    const tool = selectedTool();
    description.textContent = tool?.description ?? '';
    readArguments = tool ? renderSchemaForm(form, tool.inputSchema, images()) : () => ({});
    if (!tool) form.replaceChildren();
    showError('');
  };

  const renderTools = () => {
    const list = byServer.get(serverSelect.value) ?? [];
    toolSelect.replaceChildren(...list.map((/** @type {Json} */ tool) => h('option', { value: tool.name }, tool.tool)));
    renderForm();
    void panels.select(serverSelect.value);
  };

  /** Keeps typed values but refreshes the image pickers when new images arrive. */
  const refreshPickers = () => {
    const values = new Map(
      [.../** @type {HTMLCollectionOf<HTMLInputElement>} */ (form.elements)].filter((element) => element.name).map((element) => [element.name, element.value]),
    );
    renderForm();
    for (const [name, value] of values) {
      const element = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name));
      if (element) element.value = value;
    }
  };

  const call = async () => {
    const tool = selectedTool();
    if (!tool) return showError('Choose a tool first.');
    let args;
    try {
      args = readArguments();
    } catch (problem) {
      return showError(errorText(problem));
    }
    showError('');
    callButton.disabled = true;
    callButton.textContent = 'Calling…';
    const started = performance.now();
    try {
      const outcome = await api.callTool(sessionId(), tool.name, args);
      onImages(outcome.images);
      // append() skips the missing image grid; replaceChildren would print it as "null".
      append(
        clear(result),
        h(
          'h2',
          {},
          outcome.tool,
          h('span', { class: `badge ${outcome.isError ? 'error' : 'ok'}` }, outcome.isError ? (outcome.errorCode ?? 'error') : 'ok'),
          h('span', { class: 'muted small' }, formatMs(outcome.durationMs)),
        ),
        h('div', { class: 'label muted small' }, 'arguments'),
        h('pre', {}, JSON.stringify(args, null, 2)),
        h('div', { class: 'label muted small' }, 'result'),
        collapsible(outcome.text, { limit: 4000 }),
        imageGrid(outcome.images),
      );
      result.hidden = false;
    } catch (problem) {
      showError(`The call failed after ${formatMs(performance.now() - started)}: ${errorText(problem)}`);
    } finally {
      callButton.disabled = false;
      callButton.textContent = 'Call tool';
      void panels.refreshLog();
    }
  };

  serverSelect.addEventListener('change', renderTools);
  toolSelect.addEventListener('change', renderForm);
  callButton.addEventListener('click', call);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void call();
  });
  fileInput.addEventListener('change', async () => {
    const files = [...(fileInput.files ?? [])];
    fileInput.value = '';
    for (const file of files) {
      try {
        await upload(file);
      } catch (problem) {
        showError(`${file.name}: ${errorText(problem)}`);
      }
    }
  });
  renderTools();
  return { refreshPickers };
}
