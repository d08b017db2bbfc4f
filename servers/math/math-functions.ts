// The arithmetic behind the math server, as pure functions. Invalid input (division by zero,
// an empty list, a value outside a function's domain) throws MathInputError with a message
// the model can act on; the tool layer turns it into an `isError` result.

class MathInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MathInputError';
  }
}

function requireNonEmpty(numbers: readonly number[], tool: string): void {
  if (numbers.length === 0) throw new MathInputError(`${tool}: "numbers" is empty; pass at least one number, e.g. {"numbers": [1, 2, 3]}`);
}

/** Results must stay representable in JSON: an overflow to ±Infinity is an error, not a value. */
export function requireFinite(value: number, tool: string): number {
  if (!Number.isFinite(value)) throw new MathInputError(`${tool}: the result is not a finite number (${value}); the inputs are too large`);
  return value;
}

export function divide(numerator: number, denominator: number): number {
  if (denominator === 0) throw new MathInputError('division: cannot divide by zero ("denominator" is 0)');
  return numerator / denominator;
}

/** Remainder with the sign of the numerator, as JavaScript's `%` (and the reference) define it. */
export function modulo(numerator: number, denominator: number): number {
  if (denominator === 0) throw new MathInputError('modulo: cannot take a remainder modulo zero ("denominator" is 0)');
  return numerator % denominator;
}

export function sum(numbers: readonly number[]): number {
  requireNonEmpty(numbers, 'sum');
  return numbers.reduce((total, value) => total + value, 0);
}

export function mean(numbers: readonly number[]): number {
  requireNonEmpty(numbers, 'mean');
  return sum(numbers) / numbers.length;
}

/** Middle value of the sorted list; the average of the two middle values for even lengths. */
export function median(numbers: readonly number[]): number {
  requireNonEmpty(numbers, 'median');
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

export interface ModeResult {
  /** Every most-frequent value, in order of first appearance. */
  modes: number[];
  frequency: number;
}

export function mode(numbers: readonly number[]): ModeResult {
  requireNonEmpty(numbers, 'mode');
  const counts = new Map<number, number>();
  for (const value of numbers) counts.set(value, (counts.get(value) ?? 0) + 1);
  const frequency = Math.max(...counts.values());
  return { modes: [...counts].filter(([, count]) => count === frequency).map(([value]) => value), frequency };
}

// Math.min(...list) overflows the call stack for very long lists; reduce does not.
export function min(numbers: readonly number[]): number {
  requireNonEmpty(numbers, 'min');
  return numbers.reduce((low, value) => (value < low ? value : low));
}

export function max(numbers: readonly number[]): number {
  requireNonEmpty(numbers, 'max');
  return numbers.reduce((high, value) => (value > high ? value : high));
}

function requireUnitInterval(value: number, tool: string): void {
  if (value < -1 || value > 1) throw new MathInputError(`${tool}: input ${value} is outside the domain [-1, 1]`);
}

export function arcsin(value: number): number {
  requireUnitInterval(value, 'arcsin');
  return Math.asin(value);
}

export function arccos(value: number): number {
  requireUnitInterval(value, 'arccos');
  return Math.acos(value);
}

export function radiansToDegrees(radians: number): number {
  return (radians * 180) / Math.PI;
}

export function degreesToRadians(degrees: number): number {
  return (degrees * Math.PI) / 180;
}
