// The noisy oracle's final answer loses what its damaged calls would have told it: the GT reply
// with the facts of every dropped or altered call taken out, so the answer proxies and the
// answer-checked tasks see the same damage as the calls. With every call intact the reply is
// the GT reply, character for character.
import type { ReplayCall } from './plan.js';

/** Numbers as they are written (`1,250.00`), and runs of capitalised words (`MEETING ROOM`, `Lyon`). */
const numberPattern = /\d[\d,]*(?:\.\d+)?/g;
const entityPattern = /\p{Lu}[\p{L}\p{N}'&-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}'&-]*)*/gu;

/** The span as a whole word or number: "204" is not the 204 of "1204" or "2.04", "A" not the a of "Lyon". */
function spanPattern(span: string): RegExp {
  const escaped = span.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}]|\\d\\.)${escaped}(?![\\p{L}\\p{N}]|\\.\\d)`, 'giu');
}

/** Argument values (strings of 3+ characters, numbers) of a call, as they may appear in a reply. */
function argumentValues(value: unknown): string[] {
  if (typeof value === 'number') return [String(value)];
  if (typeof value === 'string') {
    const text = value.trim().replace(/^\.\//, '');
    return text.length >= 3 ? [text] : [];
  }
  if (Array.isArray(value)) return value.flatMap(argumentValues);
  // A number read losslessly (lossless-json) is an object holding its text.
  if (value && typeof value === 'object' && 'isLosslessNumber' in value && 'value' in value) return [String(value.value)];
  if (value && typeof value === 'object') return Object.values(value).flatMap(argumentValues);
  return [];
}

/** The reply's texts that a damaged call backs: its facts, and its argument values that the reply repeats. */
function spansOf(reply: string, call: ReplayCall): string[] {
  const values = argumentValues(call.arguments).filter((value) => spanPattern(value).test(reply));
  return [...(call.replyFacts ?? []), ...values];
}

/**
 * A reply whose facts say nothing about where they came from (a GT task without `facts`) loses
 * each of its numbers and named entities with the probability that a call was damaged: `draw(i)`
 * is the seeded draw of the i-th such text, the same at every damage rate, so more damage only
 * ever takes more away.
 */
function unattributedSpans(reply: string, share: number, draw: (index: number) => number): string[] {
  const texts = [...reply.matchAll(numberPattern), ...reply.matchAll(entityPattern)].map((match) => match[0]).filter((text) => text.length >= 2);
  return texts.filter((_text, index) => draw(index) < share);
}

function removeSpans(reply: string, spans: readonly string[]): string {
  // Longest first, so a fact ("MEETING ROOM 204") goes whole before a shorter one inside it.
  const ordered = [...new Set(spans.filter((span) => span.trim() !== ''))].sort((a, b) => b.length - a.length);
  let text = reply;
  for (const span of ordered) {
    text = text.replace(spanPattern(span), '');
  }
  return text.replace(/[ \t]{2,}/g, ' ');
}

export function damageReply(reply: string, damaged: readonly ReplayCall[], all: readonly ReplayCall[], draw: (index: number) => number): string {
  if (damaged.length === 0) return reply;
  const attributed = all.some((call) => (call.replyFacts?.length ?? 0) > 0);
  const spans = damaged.flatMap((call) => spansOf(reply, call));
  if (!attributed) spans.push(...unattributedSpans(reply, damaged.length / Math.max(1, all.length), draw));
  return removeSpans(reply, spans);
}
