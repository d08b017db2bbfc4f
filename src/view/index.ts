export { startViewServer, type ViewServer } from './server.js';
