// `m3 fixtures verify`: schema-checks every fixture file (problems by file and entry index),
// then replays each valid entry through the fallback layer itself, as a failed call of that
// tool, and checks that the fixture tier serves exactly the entry's text. With a tool catalog
// (results/tools_catalog.json from `m3 run`, or the shared static catalog) the tool must exist
// and each entry's arguments must pass its input schema.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CatalogEntry, ToolCatalog } from '../eval/call/catalog.js';
import { createLogger } from '../log/logger.js';
import { ArgumentChecker } from '../mcp/argument-check.js';
import type { CatalogTool } from '../mcp/types.js';
import { AllowList, neverMockedReason } from './allow-list.js';
import { AuditLog } from './audit-log.js';
import { savedPathToken } from './fixture-asset.js';
import { type FixtureProblem, type FixtureResult, type FixtureSet, loadFixtures } from './fixtures.js';
import { FallbackInterceptor } from './tiers.js';

export interface VerifyReport {
  set: FixtureSet;
  problems: FixtureProblem[];
  /** Entries served by the layer exactly as written. */
  replayed: number;
  /** True when arguments were checked against a catalog. */
  checkedArguments: boolean;
}

/** Arguments no fixture lists, so a replay reaches the tool's "*" default. */
const unmatchedArguments = { 'm3bench-fixture-verify': 'no fixture lists these arguments' };

function catalogTool(name: string, entry: CatalogEntry | undefined): CatalogTool {
  const [server = '', tool = ''] = name.split(/\/(.*)/s);
  return {
    canonicalName: name,
    server,
    tool,
    functionName: name.replace('/', '__'),
    description: entry?.description ?? '',
    inputSchema: entry?.inputSchema ?? {},
  };
}

/** The text an entry is served with in `workspace`: its asset's path in place of the token. */
function expectedText(result: FixtureResult, workspace: string): string {
  return result.asset ? result.text.replaceAll(savedPathToken, path.join(workspace, result.asset.saveAs)) : result.text;
}

export async function verifyFixtures(dir: string, catalog?: ToolCatalog): Promise<VerifyReport> {
  const set = loadFixtures(dir);
  const problems = [...set.problems];
  const scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'm3-fixtures-verify-')));
  const layer = new FallbackInterceptor({
    serve: true,
    record: false,
    markInline: false,
    fixtures: set,
    allowList: new AllowList([], set),
    audit: new AuditLog(path.join(scratch, 'audit.log')),
    toolsHashOf: () => '',
    logger: createLogger('silent'),
    assetRoots: [scratch],
  });
  const checker = new ArgumentChecker();
  let replayed = 0;
  try {
    for (const [name, fixtures] of set.tools) {
      const entry = catalog?.tools.get(name);
      if (catalog && !entry) problems.push({ file: fixtures.file, message: `${name} is not in the tool catalog ${catalog.source}` });
      const tool = catalogTool(name, entry);
      const cases = [
        ...[...fixtures.exact.values()].map((item) => ({ args: item.arguments, expected: expectedText(item, scratch), index: item.index })),
        ...(fixtures.fallback ? [{ args: unmatchedArguments, expected: expectedText(fixtures.fallback, scratch), index: fixtures.fallback.index }] : []),
      ];
      for (const item of cases) {
        const { index } = item;
        if (entry?.inputSchema && item.args !== unmatchedArguments) {
          const problem = checker.check(tool, item.args);
          if (problem) problems.push({ file: fixtures.file, index, message: `arguments fail the input schema of ${name}: ${problem}` });
        }
        const failed = {
          canonicalName: name,
          content: [{ type: 'text' as const, text: '[Tool error] fixture verification' }],
          isError: true,
          errorCode: 'server_unavailable' as const,
          text: '[Tool error] fixture verification',
          durationMs: 0,
        };
        const served = await layer.afterCall({ tool, arguments: item.args, context: { taskId: 'fixtures-verify', workspace: scratch }, outcome: failed });
        const first = served.content[0];
        if (served.fallback?.tier === 'fixture' && first?.type === 'text' && first.text === item.expected) replayed += 1;
        else
          problems.push({
            file: fixtures.file,
            index,
            message: `not served as written (${served.fallback ? `tier ${served.fallback.tier}` : `not served: ${neverMockedReason(tool) ?? 'the layer refused it'}`})`,
          });
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { set, problems, replayed, checkedArguments: catalog !== undefined };
}
