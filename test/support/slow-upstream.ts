// The "slow answer → upstream_timeout" check of the web-server tests. A server's HTTP client reads
// M3_HTTP_TIMEOUT_MS for all its calls, so a test that gave its one connection a short timeout
// would make every ordinary call fragile on a loaded machine, and one that gave it a long timeout
// waited that long for the slow check. The check therefore runs on a second in-process connection
// of the same server (same env) with a short timeout, against a fake answer held far longer: the
// timeout fires whatever the load, the ordinary calls keep the server's default timeout, and no
// test waits more than the short timeout.
import type { FakeReply } from '../../servers/shared/http-fake.js';

/** Per-attempt timeout of the connection that makes the slow call. */
export const SHORT_TIMEOUT_MS = 300;

/** How long the fake holds the slow answer: a hundred times the short timeout. */
const SLOW_ANSWER_MS = 30_000;

/** The env entry that gives a connection the short timeout. */
export const shortTimeoutEnv: Readonly<Record<string, string>> = { M3_HTTP_TIMEOUT_MS: String(SHORT_TIMEOUT_MS) };

/** A fake reply that arrives long after the short timeout (the body is what a timely answer would carry). */
export function slowReply(body: unknown): FakeReply {
  return { delayMs: SLOW_ANSWER_MS, body };
}

/** What the shared HTTP client says of an upstream that did not answer in time (servers/shared/http-client.ts). */
export const shortTimeoutMessage = `did not answer within ${SHORT_TIMEOUT_MS} ms`;
