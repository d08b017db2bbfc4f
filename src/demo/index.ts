// The interactive multimodal web demo: a local web server over the benchmark's agent loop.
export { startDemoServer, type DemoServer, type DemoServerOptions } from './server.js';
export { createModelChoice, discoverDefaultModel, type ModelChoice, type ModelEntry } from './models.js';
export { defaultDemoLimits, type DemoLimits } from './context.js';
export type { PageEvent, PageImage } from './page-events.js';
