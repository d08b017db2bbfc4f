export { McpHost } from './host.js';
export * from './types.js';
