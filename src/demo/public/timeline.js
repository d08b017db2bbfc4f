// @ts-check
// The conversation view: one turn per episode, built only from the server-sent events, so a
// reload (which replays the session's buffered events) rebuilds exactly what was shown live.
// It follows a live run: after each event the page scrolls to the newest round, unless the
// reader scrolled up to read something; scrolling back to the bottom follows again.
import { append, formatMs, h } from './dom.js';
import { collapsible, imageGrid, resultDetails } from './widgets.js';

/** @typedef {import('./dom.js').Json} Json an event the server sent (src/demo/page-events.ts) */
/** @typedef {Record<string, any>} Episode one turn's elements and state */

/** How close to the bottom (px) still counts as "at the newest round". */
const followSlack = 160;

function atBottom() {
  const page = document.documentElement;
  return page.scrollHeight - (window.scrollY + window.innerHeight) <= followSlack;
}

export class Conversation {
  /**
   * @param {HTMLElement} list
   * @param {{ onEpisodeEnd?: (episode: unknown) => void, emptyState?: HTMLElement }} options
   */
  constructor(list, { onEpisodeEnd, emptyState }) {
    this.list = list;
    this.emptyState = emptyState;
    this.onEpisodeEnd = onEpisodeEnd;
    /** @type {Map<string, Episode>} */
    this.episodes = new Map();
    this.follow = true;
    this.scrolling = false;
    window.addEventListener('scroll', () => {
      if (!this.scrolling) this.follow = atBottom();
    });
  }

  /** Scrolls to the newest content when following; the scroll it causes does not change the mode. */
  followLatest() {
    if (!this.follow) return;
    this.scrolling = true;
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
    requestAnimationFrame(() => {
      this.scrolling = false;
    });
  }

  clear() {
    for (const episode of this.episodes.values()) episode.root.remove();
    this.episodes.clear();
    if (this.emptyState) this.emptyState.hidden = false;
  }

  /** @param {Json} event */
  handle(event) {
    // A new message starts a new turn: follow it.
    if (event.type === 'user_message') this.follow = true;
    this.apply(event);
    this.followLatest();
  }

  /** @param {Json} event */
  apply(event) {
    const episode = this.episode(event.episodeId);
    switch (event.type) {
      case 'user_message':
        return this.userMessage(episode, event);
      case 'round_start':
        this.round(episode, event.round);
        return this.status(episode, `Round ${event.round}: waiting for the model…`);
      case 'model_call':
        return this.modelCall(episode, event);
      case 'tool_call_start':
        return this.toolStart(episode, event);
      case 'tool_call_end':
        return this.toolEnd(episode, event);
      case 'final':
        return this.final(episode, event);
      case 'episode_end':
        return this.end(episode, event);
      default:
        return undefined;
    }
  }

  /**
   * @param {string} id
   * @returns {Episode}
   */
  episode(id) {
    let episode = this.episodes.get(id);
    if (!episode) {
      const user = h('div', { class: 'bubble user' });
      const timeline = h('div', { class: 'timeline', 'aria-label': 'Timeline' });
      const statusText = h('span', {}, 'Starting…');
      const status = h('div', { class: 'status-line' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), statusText);
      timeline.append(status);
      const root = h('li', { class: 'turn', dataset: { episode: id } }, user, timeline);
      episode = { id, root, user, timeline, status, statusText, rounds: new Map(), calls: new Map(), finished: false };
      this.episodes.set(id, episode);
      if (this.emptyState) this.emptyState.hidden = true;
      this.list.append(root);
    }
    return episode;
  }

  /**
   * @param {Episode} episode
   * @param {Json} event
   */
  userMessage(episode, event) {
    append(
      episode.user,
      h('div', { class: 'user-text' }, event.text),
      imageGrid(event.images),
      h('div', { class: 'meta' }, `${event.model} · ${event.servers.length} server${event.servers.length === 1 ? '' : 's'}`),
    );
  }

  /**
   * @param {Episode} episode
   * @param {string} text
   */
  status(episode, text) {
    if (!episode.finished) episode.statusText.textContent = text;
  }

  /**
   * @param {Episode} episode
   * @param {number} number
   */
  round(episode, number) {
    let round = episode.rounds.get(number);
    if (!round) {
      const modelLine = h('div', { class: 'model-line' });
      const calls = h('div', { class: 'calls' });
      const root = h('section', { class: 'round', dataset: { round: number } }, h('h3', {}, `Round ${number}`), modelLine, calls);
      episode.timeline.insertBefore(root, episode.status);
      round = { root, modelLine, calls };
      episode.rounds.set(number, round);
    }
    return round;
  }

  /**
   * @param {Episode} episode
   * @param {Json} event
   */
  modelCall(episode, event) {
    const tokens = `${event.usage.inputTokens.toLocaleString()} → ${event.usage.outputTokens.toLocaleString()} tokens`;
    const retries = event.attempts > 1 ? ` · ${event.attempts} attempts` : '';
    if (event.purpose === 'final') {
      this.status(episode, 'Writing the final answer…');
      return;
    }
    const round = this.round(episode, event.round);
    if (event.cancelled) {
      round.modelLine.textContent = 'Model request stopped: cancelled by the user';
      return;
    }
    if (event.error) {
      append(round.modelLine, h('div', { class: 'inline-error' }, `Model error (${event.error.errorClass}): ${event.error.message}`));
      return;
    }
    const calls = event.toolCallCount > 0 ? `${event.toolCallCount} tool call${event.toolCallCount === 1 ? '' : 's'}` : 'no tool calls: answering';
    round.modelLine.textContent = `Model${event.purpose === 'work' ? '' : ` (${event.purpose} stage)`} answered in ${formatMs(event.latencyMs)} · ${tokens}${retries} · ${calls}`;
    if (event.text && event.toolCallCount > 0) round.root.insertBefore(h('p', { class: 'model-text' }, event.text), round.calls);
    this.status(episode, event.toolCallCount > 0 ? `Round ${event.round}: running ${calls}…` : 'Answer received');
  }

  /**
   * @param {Episode} episode
   * @param {Json} event
   */
  callCard(episode, event) {
    const key = `${event.round}:${event.index}`;
    let card = episode.calls.get(key);
    if (!card) {
      const badge = h('span', { class: 'badge running' }, 'running');
      const duration = h('span', { class: 'duration' });
      const body = h('div', { class: 'call-body' });
      const root = h(
        'article',
        { class: 'call', dataset: { tool: event.name, round: event.round, index: event.index } },
        h('header', {}, h('span', { class: 'name' }, event.name), badge, duration),
        h('div', { class: 'label' }, 'arguments'),
        collapsible(event.arguments, { limit: 400, label: 'arguments', className: 'arguments' }),
        body,
      );
      this.round(episode, event.round).calls.append(root);
      card = { root, badge, duration, body };
      episode.calls.set(key, card);
    }
    return card;
  }

  /**
   * @param {Episode} episode
   * @param {Json} event
   */
  toolStart(episode, event) {
    this.callCard(episode, event);
  }

  /**
   * @param {Episode} episode
   * @param {Json} event
   */
  toolEnd(episode, event) {
    const card = this.callCard(episode, event);
    card.badge.className = `badge ${event.isError ? 'error' : 'ok'}`;
    card.badge.textContent = event.isError ? (event.errorCode ?? 'error') : 'ok';
    card.root.classList.toggle('error', event.isError);
    card.duration.textContent = formatMs(event.durationMs);
    append(card.body, resultDetails(event.result, { label: event.isError ? 'error' : 'result' }), imageGrid(event.images));
  }

  /**
   * @param {Episode} episode
   * @param {Json} event
   */
  final(episode, event) {
    if (episode.answer) return;
    episode.answer = h('div', { class: 'bubble answer' }, h('h3', {}, 'Answer'), event.text || '(the model gave an empty answer)');
    episode.root.append(episode.answer);
  }

  /**
   * @param {Episode} episode
   * @param {Json} event
   */
  end(episode, event) {
    episode.finished = true;
    episode.status.remove();
    if (event.status === 'ok' && !episode.answer) this.final(episode, { text: event.reply });
    if (event.status === 'cancelled') episode.root.append(h('div', { class: 'bubble cancelled' }, 'Cancelled. The model and any running tools were stopped.'));
    if (event.status === 'error') {
      episode.root.append(
        h(
          'div',
          { class: 'bubble failed', role: 'alert' },
          h('strong', {}, `Failed (${event.error?.code ?? 'error'}): `),
          event.error?.message ?? 'unknown error',
        ),
      );
    }
    episode.root.append(h('div', { class: 'meta' }, `${event.status} · ${formatMs(event.durationMs)}${event.logFile ? ` · log ${event.logFile}` : ''}`));
    this.onEpisodeEnd?.(event);
  }
}
