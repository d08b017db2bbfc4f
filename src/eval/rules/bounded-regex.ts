// Regular expressions from task files run with a time limit. JavaScript's engine backtracks, so a
// pattern such as `(a+)+$` on 34 `a`s and `!` runs for hours; running the match inside a `vm`
// script with a timeout lets V8 interrupt it, and the rule then fails with the reason instead
// of holding the evaluation at 100 % CPU.
import vm from 'node:vm';

/** How long one rule's regex may run; generous, so a loaded machine never trips it on a sane pattern. */
const REGEX_TIME_LIMIT_MS = 2000;

export class RegexTimeoutError extends Error {}

const script = new vm.Script('pattern.exec(subject)');
let context: vm.Context | undefined;

/** `pattern.exec(subject)`, stopped after `limitMs` with a RegexTimeoutError. */
export function execWithTimeLimit(pattern: RegExp, subject: string, limitMs = REGEX_TIME_LIMIT_MS): RegExpExecArray | null {
  context ??= vm.createContext({ pattern: undefined, subject: undefined });
  context.pattern = pattern;
  context.subject = subject;
  try {
    return script.runInContext(context, { timeout: limitMs }) as RegExpExecArray | null;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new RegexTimeoutError(`stopped after ${limitMs} ms (the pattern backtracks without end on this text)`);
    }
    throw error;
  } finally {
    context.pattern = undefined;
    context.subject = undefined;
  }
}
