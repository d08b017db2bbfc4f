export { startViewServer, /** @internal */ type ViewServer } from './server.js';
