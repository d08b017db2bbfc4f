// The one bound on every timer of the harness. Node's setTimeout (and AbortSignal.timeout)
// cannot wait longer than 2^31-1 ms: a larger delay fires after 1 ms with only a warning, so
// `M3_TASK_TIMEOUT=9999999` used to fail every task at once. Durations are refused above the
// bound where users type them (switches, flags, mcp_servers.json) and clamped where timers
// are armed.

/** The longest delay setTimeout honours (about 24.8 days). */
const maxTimerMs = 2 ** 31 - 1;
/** The same in whole seconds, the unit every duration switch and flag uses. */
export const maxTimerSeconds = Math.floor(maxTimerMs / 1000);

/** Why a duration was refused; shown after the switch, flag or field name. */
export const timerSecondsMessage = `expected at most ${maxTimerSeconds} seconds (about 24 days; Node timers cannot wait longer)`;

/** A delay setTimeout will honour: clamped into [0, maxTimerMs]; Infinity waits the longest. */
export function toTimerMs(ms: number): number {
  if (Number.isNaN(ms)) throw new RangeError('toTimerMs: the delay is NaN');
  return Math.min(Math.max(0, Math.round(ms)), maxTimerMs);
}

/** A duration in seconds (from a switch, flag or config field) as a timer delay in ms. */
export function secondsToTimerMs(seconds: number): number {
  return toTimerMs(seconds * 1000);
}
