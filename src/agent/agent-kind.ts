// The agent kinds one episode loop supports. `function-call` uses the provider's native tool
// calling; `react` writes its tool calls as text (src/agent/react-actions.ts), so it works with
// models that have no tool support (requests carry no tools); `basic` gets no tools at all: the
// no-tool baseline that shows whether tools matter.
import { z } from 'zod';

export const AGENT_KINDS = ['function-call', 'react', 'basic'] as const;
export const agentKindSchema = z.enum(AGENT_KINDS);
export type AgentKind = z.infer<typeof agentKindSchema>;
