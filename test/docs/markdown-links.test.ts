// Every relative link in README.md and docs/*.md must point to a file that exists and, with a
// `#fragment`, to a heading of that file (GitHub's anchor rule). No markdown parser is installed,
// so links are read with a regex after fenced code blocks and inline code spans are removed (a
// link inside code is not a link).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';

interface Link {
  file: string;
  target: string;
}

/** The lines outside fenced code blocks (``` or ~~~). */
function outsideFences(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) fence = marker;
    else if (fence !== undefined && marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    else if (fence === undefined) lines.push(line);
  }
  return lines.join('\n');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function linksOf(file: string, markdown: string): Link[] {
  const pattern = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  return [
    ...outsideFences(markdown)
      .replace(/(`+)[\s\S]*?\1/g, '``')
      .matchAll(pattern),
  ].map((match) => ({ file, target: match[1] as string }));
}

/** A description of what is wrong with a link, or undefined when it resolves. */
function problemOf(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined; // https:, mailto: ...
  const [rawPath = '', fragment] = link.target.split('#', 2);
  const targetFile = rawPath === '' ? link.file : path.resolve(path.dirname(link.file), decodeURIComponent(rawPath));
  if (!existsSync(targetFile)) return `${link.target}: no such file ${path.relative(repoRoot, targetFile)}`;
  if (fragment === undefined || fragment === '') return undefined;
  if (!statSync(targetFile).isFile() || !targetFile.endsWith('.md')) return `${link.target}: an anchor into a file that is not Markdown`;
  const anchors = anchorsOf(readFileSync(targetFile, 'utf8'));
  return anchors.has(fragment) ? undefined : `${link.target}: no heading with anchor #${fragment} in ${path.relative(repoRoot, targetFile)}`;
}

const docsDir = path.join(repoRoot, 'docs');
const documents = [
  path.join(repoRoot, 'README.md'),
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(docsDir, name)),
];

describe('Markdown links of README.md and docs/', () => {
  it('resolve: every relative link names an existing file and, with #anchor, one of its headings', () => {
    const links = documents.flatMap((file) => linksOf(file, readFileSync(file, 'utf8')));
    expect(links.length).toBeGreaterThan(20);
    const problems = links.flatMap((link) => {
      const problem = problemOf(link);
      return problem === undefined ? [] : [`${path.relative(repoRoot, link.file)}: ${problem}`];
    });
    expect(problems).toEqual([]);
  });

  it('reach every document in docs/ from the README', () => {
    const readme = path.join(repoRoot, 'README.md');
    const linked = new Set(
      linksOf(readme, readFileSync(readme, 'utf8')).map((link) => path.resolve(repoRoot, (link.target.split('#')[0] ?? '') || 'README.md')),
    );
    expect(documents.filter((file) => !linked.has(file)).map((file) => path.relative(repoRoot, file))).toEqual([]);
  });

  it('are checked for real: a missing file, a missing anchor and a link inside code are told apart', () => {
    const file = path.join(repoRoot, 'README.md');
    const text = [
      '[ok](docs/metrics.md#paper-comparison) [gone](docs/nope.md) [bad anchor](docs/metrics.md#no-such-heading)',
      '`[in code](docs/nope.md)` [web](https://example.org/x)',
      '```',
      '[in a fence](docs/nope.md)',
      '```',
    ].join('\n');
    const problems = linksOf(file, text).map((link) => problemOf(link));
    expect(problems).toEqual([
      undefined,
      'docs/nope.md: no such file docs/nope.md',
      'docs/metrics.md#no-such-heading: no heading with anchor #no-such-heading in docs/metrics.md',
      undefined,
    ]);
    expect(anchorsOf('# A `b` (c)\n## A b c\n## Über: x_y')).toEqual(new Set(['a-b-c', 'a-b-c-1', 'über-x_y']));
  });
});
