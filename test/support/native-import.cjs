// Node's own dynamic import, for test/support/m3-in-process.ts: Vitest rewrites import() in the
// test files and runs them where a Function-made import() has no loader, so a module that must be
// loaded by Node itself (dist/, as a child loads it) is imported from this CommonJS file, which
// Node requires natively.
module.exports = (url) => import(url);
