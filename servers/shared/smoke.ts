// What a server of ours declares for `m3 servers check --smoke`: one cheap call and how to judge
// its answer. Web-API servers also declare a loopback fake of their upstream(s), so the same
// smoke call runs offline: the check starts the fake and points the server's base-URL variables
// at it (each variable gets `<fake url><prefix>`).
import type { FakeRoute } from './http-fake.js';

export interface ServerSmoke {
  tool: string;
  args: Record<string, unknown>;
  /** What a correct answer looks like, for the report. */
  expectation: string;
  accept: (text: string) => boolean;
  /** Credential variables the online call needs (keyed servers); without them it is not run online. */
  requiresEnv?: readonly string[];
  offline?: {
    /** Base-URL variable → path prefix on the fake (often ''), e.g. { M3_UPSTREAM_OPEN_METEO_URL: '/meteo' }. */
    env: Record<string, string>;
    /** Routes answering in the upstream's documented shape (paths include the prefix). */
    routes: FakeRoute[];
    /**
     * Placeholder values for a keyed server's credential variables, set only for the offline
     * run so its calls get past the missing-key check (the fake accepts any key). Never real keys.
     */
    credentials?: Record<string, string>;
  };
}

/** An `accept` for answers that are JSON: parses the text and hands the value to `check`. */
export function acceptJson(check: (value: unknown) => boolean): (text: string) => boolean {
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    return check(value);
  };
}
