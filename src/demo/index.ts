// The interactive multimodal web demo: a local web server over the benchmark's agent loop.
export { startDemoServer, /** @internal */ type DemoServer } from './server.js';
export { createModelChoice } from './models.js';
export type { /** @internal */ DemoLimits } from './context.js';
export { playgroundRpcLogEntries } from './server-inspect.js';
