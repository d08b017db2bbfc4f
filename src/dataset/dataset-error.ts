// Failures of `m3 dataset pull|verify` that stop the command. `kind` lets the CLI add advice
// that depends on the rest of the program (e.g. which flags `m3 run` has) without the library
// knowing about the CLI; `host` names what could not be reached.
import { M3Error } from '../errors/index.js';

type DatasetFailure = 'unreachable' | 'http' | 'layout' | 'lock' | 'download';

export class DatasetError extends M3Error {
  readonly kind: DatasetFailure;
  readonly host: string | undefined;
  constructor(kind: DatasetFailure, message: string, options: { cause?: unknown; host?: string } = {}) {
    super('dataset', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.host = options.host;
  }
}

/** The one wording for "the hub (or its CDN) cannot be reached". */
export function unreachableError(host: string, reason: string, cause: unknown): DatasetError {
  return new DatasetError('unreachable', `cannot reach ${host}: you are offline or it is blocked (${reason}); the dataset is not bundled with m3bench`, {
    cause,
    host,
  });
}
