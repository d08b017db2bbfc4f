// `--condition faults=p[:kind...]`: with probability p per call (seeded by the run seed, the task,
// the tool, its arguments and how often that exact call was made before), the call fails with an
// infrastructure-shaped error before it reaches the server. The model sees an ordinary tool error
// and may retry; a retry of the same call draws again. The outcome carries the code
// `injected_fault` and a condition mark, so it is never an infrastructure failure of the run.
import { toolErrorText } from '../core/tool-result-contract.js';
import type { ToolHost } from '../mcp/types.js';
import { drawFor, Occurrences } from './draw.js';
import { hostView } from '../mcp/host-view.js';

export const faultKinds = ['timeout', 'rate-limit', 'server-error', 'reset'] as const;
export type FaultKind = (typeof faultKinds)[number];

/** Names a user may write for each kind (`faults=0.1:429:timeout`). */
export const faultAliases: Record<string, FaultKind> = {
  timeout: 'timeout',
  '429': 'rate-limit',
  'rate-limit': 'rate-limit',
  '500': 'server-error',
  'server-error': 'server-error',
  reset: 'reset',
  'connection-reset': 'reset',
};

/** What the model reads: the wording of real failures of these kinds, nothing that says "injected". */
const faultText: Record<FaultKind, string> = {
  timeout: 'the request timed out after 30 s without a response from the service',
  'rate-limit': 'HTTP 429 Too Many Requests: rate limit exceeded, retry after 1 s',
  'server-error': 'HTTP 500 Internal Server Error: the service failed to process the request',
  reset: 'connection reset by peer (ECONNRESET) while waiting for the response',
};

export interface FaultSpec {
  probability: number;
  kinds: readonly FaultKind[];
}

export interface TaskScope {
  taskId: string;
  seed: number;
}

export function withInjectedFaults(host: ToolHost, spec: FaultSpec, scope: TaskScope): ToolHost {
  const occurrences = new Occurrences();
  return hostView(host, {
    callTool: async (canonicalName, args, options) => {
      const key = `${canonicalName}\u0002${JSON.stringify(args)}`;
      const occurrence = occurrences.next(key);
      const draw = drawFor(scope.seed, 'fault', scope.taskId, key, occurrence);
      if (draw >= spec.probability) return host.callTool(canonicalName, args, options);
      const kind = spec.kinds[Math.floor(drawFor(scope.seed, 'fault-kind', scope.taskId, key, occurrence) * spec.kinds.length)] ?? 'timeout';
      const text = toolErrorText(faultText[kind]);
      return {
        canonicalName,
        content: [{ type: 'text', text }],
        isError: true,
        errorCode: 'injected_fault',
        text,
        durationMs: 0,
        condition: { kind: 'injected_fault', detail: kind },
      };
    },
  });
}
