// Import rules checked by test/architecture/imports.test.ts (and `npx depcruise`): no circle,
// and nothing imports upward along cli → runner → agent → {llm, mcp} → core.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import circle makes load order and ownership unclear.', from: {}, to: { circular: true } },
    { name: 'core-imports-nothing-above', severity: 'error', from: { path: '^src/core/' }, to: { path: '^src/(cli|runner|agent|llm|mcp|eval|report|demo|store)/' } },
    { name: 'llm-mcp-not-upward', severity: 'error', from: { path: '^src/(llm|mcp)/' }, to: { path: '^src/(cli|runner|agent|demo|report)/' } },
    { name: 'agent-not-upward', severity: 'error', from: { path: '^src/agent/' }, to: { path: '^src/(cli|runner|demo|report)/' } },
    { name: 'runner-not-cli', severity: 'error', from: { path: '^src/runner/' }, to: { path: '^src/cli/' } },
    { name: 'results-not-upward', severity: 'error', comment: 'The results module owns file names and schemas; every reader and writer imports it, not the other way round.', from: { path: '^src/results/' }, to: { path: '^src/(cli|runner|agent|llm|mcp|eval|report|view|stats|demo)/' } },
    { name: 'only-cli-imports-cli', severity: 'error', from: { pathNot: '^src/cli/' }, to: { path: '^src/cli/' } },
    { name: 'servers-not-harness', severity: 'error', comment: 'Servers are separate processes: they may share src/core, the asset locator and the zod issue formatter only.', from: { path: '^servers/' }, to: { path: '^src/(?!core/|assets/|config/zod-issues)' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
