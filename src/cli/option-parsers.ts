// Commander argument parsers shared by every command, so `--concurrency 0` or `--port abc`
// is refused the same way everywhere, naming what was expected and what was given.
import { InvalidArgumentError } from 'commander';
import { maxTimerSeconds, timerSecondsMessage } from '../config/timer-ms.js';

/** A whole number in [min, max]. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`expected a whole number ${range}, got "${value}"`);
    }
    return parsed;
  };
}

export const positiveInteger = wholeNumber(1);
export const nonNegativeInteger = wholeNumber(0);

/** A duration in seconds, > 0 (fractions allowed), no longer than a Node timer can wait. */
export function seconds(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError(`expected a number of seconds > 0, got "${value}"`);
  if (parsed > maxTimerSeconds) throw new InvalidArgumentError(`${timerSecondsMessage}, got "${value}"`);
  return parsed;
}

/** A duration in seconds, >= 0 (fractions allowed), up to the timer bound. */
export function secondsOrZero(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError(`expected a number of seconds >= 0, got "${value}"`);
  if (parsed > maxTimerSeconds) throw new InvalidArgumentError(`${timerSecondsMessage}, got "${value}"`);
  return parsed;
}

/** A whole number of seconds from 0 (e.g. a delay that may be off) up to the timer bound. */
export const wholeSeconds = wholeNumber(0, maxTimerSeconds);

/** A finite number >= 0 (fractions allowed), e.g. a sampling temperature. */
export function nonNegativeNumber(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError(`expected a number >= 0, got "${value}"`);
  return parsed;
}

/** A finite number > 0 (fractions allowed), e.g. an amount in USD. */
export function positiveNumber(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError(`expected a number > 0, got "${value}"`);
  return parsed;
}

/** A number from 0 to 1 (a rate, a drop in a rate). */
export function fraction(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0 || parsed > 1)
    throw new InvalidArgumentError(`expected a number from 0 to 1, got "${value}"`);
  return parsed;
}
