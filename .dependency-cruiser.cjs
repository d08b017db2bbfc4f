// Import rules checked by `npm run lint` (and test/architecture/imports.test.ts): no circle, and no
// import upward along the layer list below. Every folder of src/ is in exactly one layer; a folder
// that is in none fails lint (rule `folder-in-a-layer`), so a new folder is placed on purpose.
// Folders in one layer are peers: they may import each other (a file-level circle still fails).
// Web-API and local servers (servers/<name>/) are separate processes: they share servers/shared/,
// src/core, the asset locator and the zod issue formatter, and never each other.

/** Bottom to top: a folder may import its own layer and the layers below it, never above. */
const layers = [
  ['core'], // the neutral data model
  ['log'], // logger and redaction: everything logs, so it imports only core
  ['errors'],
  ['config'], // mcp_servers.json, run options, M3_* switches
  ['media', 'assets', 'web'], // image bytes; the asset manifest; the HTTP stack the demo and viewer share
  ['tasks'], // task and GT files (their schemas include the state checks)
  ['results'], // run folder layout, file names, grader versions, the success rule's labels
  ['store'], // the only owner of SQL
  ['mcp'], // host side of MCP
  ['llm'], // drivers, retry policy, response cache (keys hash the tool surface: mcp/tools-hash)
  ['eval'], // evaluators (the judges call models through llm/)
  ['fallback', 'robustness'], // tool fallback tiers; robustness conditions (distractors, injected faults) over tool calls
  ['agent'], // one episode
  ['runner'], // the batch
  ['stats'], // trials, intervals, comparisons over finished runs
  ['report'], // tables, charts, HTML over evaluations and stats
  ['view', 'dataset'], // the run viewer; pulling the original dataset
  ['export'], // a stored run as a file or in other tools' formats (view bundle, OpenTelemetry, inspect_ai): reads the viewer's answers
  ['demo'], // the interactive web demo (runs the agent through the runner's task path)
  ['cli'], // one file per command
];

/**
 * Upward edges kept on purpose, one entry per file pair, each with its reason. Anything else
 * upward fails lint.
 */
const exceptions = [
  {
    from: 'src/tasks/verify.ts',
    to: '^src/(eval/state/run-state-checks|mcp/(checked-call|types))\\.ts$',
    why: '`m3 tasks verify` replays a task against live servers and checks the state it left: an operation over tasks that needs the host (mcp) and the state checker (eval); it stays beside the task files it verifies, and nothing below imports it.',
  },
  {
    from: 'src/store/schemas.ts',
    to: '^src/llm/retry\\.ts$',
    why: "Type-only: a compile-time check that the retry policy's attempt records fit the column that stores them (erased at build).",
  },
  {
    from: 'src/stats/format.ts',
    to: '^src/report/tables\\.ts$',
    why: "Type-only: the stats formatter fills the report's Table shape (erased at build).",
  },
  {
    from: 'src/stats/batch-results.ts',
    to: '^src/report/load-results\\.ts$',
    why: "The step evaluation file's reader and file names live in report/load-results.ts; stats reads the same file through it rather than a second parser.",
  },
  {
    from: 'src/mcp/smoke-tests.ts',
    to: '^servers/([^/]+/smoke|shared/(smoke|http-fake))\\.ts$',
    why: "`m3 servers check --smoke` needs each web server's smoke declaration (servers/<name>/smoke.ts: one call, its expectation and a loopback fake of the upstream). These files are data plus the fake: no server code runs in the host.",
  },
  {
    from: 'src/fallback/fixture-asset.ts',
    to: '^servers/shared/allowed-roots\\.ts$',
    why: 'A fixture asset is written where the servers will read it: the host must apply the very rule the servers enforce (the allowed roots), not a copy.',
  },
];

const folders = layers.flat();
const folderPattern = (names) => `^src/(${names.join('|')})/`;

function upwardRules() {
  const rules = [];
  layers.forEach((layer, index) => {
    const above = layers.slice(index + 1).flat();
    if (above.length === 0) return;
    const own = exceptions.filter((e) => new RegExp(folderPattern(layer)).test(e.from));
    const to = { path: folderPattern(above) };
    rules.push({
      name: `${layer.join('-')}-not-upward`,
      severity: 'error',
      comment: `${layer.join(', ')} may import only: ${layers.slice(0, index + 1).flat().join(', ')}.`,
      from: { path: folderPattern(layer), pathNot: own.map((e) => `^${e.from}$`) },
      to,
    });
    for (const exception of own) {
      rules.push({
        name: `${layer.join('-')}-not-upward`,
        severity: 'error',
        comment: exception.why,
        from: { path: `^${exception.from}$` },
        to: { ...to, pathNot: exception.to },
      });
    }
  });
  return rules;
}

const hostToServers = exceptions.filter((e) => e.to.startsWith('^servers/'));

/** @type {import('dependency-cruiser').IConfiguration} */
const config = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import circle makes load order and ownership unclear.', from: {}, to: { circular: true } },
    {
      name: 'folder-in-a-layer',
      severity: 'error',
      comment: 'Every folder of src/ is in the layer list of .dependency-cruiser.cjs: place a new folder there.',
      from: { path: '^src/', pathNot: folderPattern(folders) },
      to: {},
    },
    {
      name: 'folder-in-a-layer',
      severity: 'error',
      comment: 'Every folder of src/ is in the layer list of .dependency-cruiser.cjs: place a new folder there.',
      from: {},
      to: { path: '^src/', pathNot: folderPattern(folders) },
    },
    ...upwardRules(),
    {
      name: 'host-not-servers',
      severity: 'error',
      comment: 'Servers run as child processes; the harness reaches them over MCP, not by import.',
      from: { path: '^src/', pathNot: hostToServers.map((e) => `^${e.from}$`) },
      to: { path: '^servers/' },
    },
    ...hostToServers.map((e) => ({
      name: 'host-not-servers',
      severity: 'error',
      comment: e.why,
      from: { path: `^${e.from}$` },
      to: { path: '^servers/', pathNot: e.to },
    })),
    {
      name: 'servers-not-harness',
      severity: 'error',
      comment: 'Servers are separate processes: they may share src/core, the asset locator and the zod issue formatter only.',
      from: { path: '^servers/' },
      to: { path: '^src/(?!core/|assets/|config/zod-issues)' },
    },
    {
      name: 'servers-not-each-other',
      severity: 'error',
      comment: 'A server shares code through servers/shared/ only, never by importing another server.',
      from: { path: '^servers/([^/]+)/' },
      to: { path: '^servers/[^/]+/', pathNot: ['^servers/$1/', '^servers/shared/'] },
    },
    {
      name: 'servers-shared-not-servers',
      severity: 'error',
      comment: 'servers/shared/ is the layer under every server: it imports none of them.',
      from: { path: '^servers/shared/' },
      to: { path: '^servers/(?!shared/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};

// The layer list, for test/architecture/imports.test.ts (not enumerable: not part of the config).
Object.defineProperty(config, 'layers', { value: layers, enumerable: false });

module.exports = config;
