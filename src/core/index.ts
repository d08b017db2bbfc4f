export * from './content.js';
export * from './messages.js';
export * from './usage.js';
