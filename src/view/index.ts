export { startViewServer, type ViewServer, type ViewServerOptions } from './server.js';
