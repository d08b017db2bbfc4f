// The Home Manager and nix-darwin tools (search, info, stats, list_options, options_by_prefix),
// five per page, over the options parsed from the page. The ground truth calls
// home_manager_search (query "zsh", limit 3) and home_manager_info (programs.zsh.enable).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { pythonThousands } from '../shared/python-format.js';
import { parseOptionPage, type OptionFilter, type OptionPage, type PageOption } from './option-pages.js';
import { answer, joinStripped, nixosError, type NixosContext, type NixosTool } from './text.js';
import { ClientHttpError } from './upstreams.js';

interface PageFamily {
  page: OptionPage;
  /** Tool-name prefix: home_manager / darwin. */
  tool: string;
  label: string;
  example: string;
  statsLimit: number;
  listLimit: number;
  topCategories: string[];
  knownCategories: Set<string>;
}

const homeManager: PageFamily = {
  page: 'home-manager',
  tool: 'home_manager',
  label: 'Home Manager',
  example: 'programs.git or services',
  statsLimit: 5000,
  listLimit: 5000,
  topCategories: ['programs', 'services', 'home', 'wayland', 'xsession'],
  knownCategories: new Set(
    'accounts dconf editorconfig fonts gtk home i18n launchd lib manual news nix nixgl nixpkgs pam programs qt services specialisation systemd targets wayland xdg xresources xsession'.split(
      ' ',
    ),
  ),
};

const darwin: PageFamily = {
  page: 'darwin',
  tool: 'darwin',
  label: 'nix-darwin',
  example: 'system.defaults or services',
  statsLimit: 3000,
  listLimit: 2000,
  topCategories: ['services', 'system', 'launchd', 'programs', 'homebrew'],
  knownCategories: new Set(
    'documentation environment fonts homebrew ids launchd networking nix nixpkgs power programs security services system targets time users'.split(' '),
  ),
};

/** Fetches and parses a page; a 4xx is the reference's "Failed to fetch docs: ..." error. */
async function loadOptions(context: NixosContext, family: PageFamily, filter: OptionFilter): Promise<PageOption[] | CallToolResult> {
  const url = family.page === 'home-manager' ? context.http.urls.homeManagerUrl : context.http.urls.darwinUrl;
  try {
    return parseOptionPage(await context.http.page(url), family.page, filter);
  } catch (error) {
    if (error instanceof ClientHttpError) return nixosError(`Failed to fetch docs: ${error.message}`);
    throw error;
  }
}

function optionLines(option: PageOption, withType: boolean): string[] {
  return [`• ${option.name}`, ...(withType && option.type ? [`  Type: ${option.type}`] : []), ...(option.description ? [`  ${option.description}`] : []), ''];
}

async function search(context: NixosContext, family: PageFamily, args: Record<string, unknown>) {
  const query = String(args.query);
  const limit = Number(args.limit ?? 20);
  if (!(limit >= 1 && limit <= 100)) return nixosError('Limit must be 1-100');
  const options = await loadOptions(context, family, { query, limit });
  if (!Array.isArray(options)) return options;
  if (options.length === 0) return answer(`No ${family.label} options found matching '${query}'`);
  return answer(
    joinStripped([`Found ${options.length} ${family.label} options matching '${query}':\n`, ...options.flatMap((option) => optionLines(option, true))]),
  );
}

async function info(context: NixosContext, family: PageFamily, args: Record<string, unknown>) {
  const name = String(args.name);
  const options = await loadOptions(context, family, { query: name, limit: 100 });
  if (!Array.isArray(options)) return options;
  const exact = options.find((option) => option.name === name);
  if (exact) {
    const lines = [`Option: ${name}`, ...(exact.type ? [`Type: ${exact.type}`] : []), ...(exact.description ? [`Description: ${exact.description}`] : [])];
    return answer(lines.join('\n'));
  }
  const browse = `${family.tool}_options_by_prefix('${name}')`;
  const suggestions = options
    .slice(0, 5)
    .filter((option) => option.name.includes(name) || option.name.startsWith(`${name}.`))
    .map((option) => option.name);
  if (suggestions.length > 0) {
    const listed = suggestions.map((suggestion) => `  • ${suggestion}`).join('\n');
    return nixosError(
      `Option '${name}' not found. Did you mean one of these?\n${listed}\n\nTip: Use ${browse} to browse all options with this prefix.`,
      'NOT_FOUND',
    );
  }
  return nixosError(`Option '${name}' not found.\nTip: Use ${browse} to browse available options.`, 'NOT_FOUND');
}

const categoryOf = (name: string) => name.split('.')[0] ?? '';

async function stats(context: NixosContext, family: PageFamily) {
  const options = await loadOptions(context, family, { limit: family.statsLimit });
  if (!Array.isArray(options)) return options;
  if (options.length === 0) return nixosError(`Failed to fetch ${family.label} statistics`);
  const categories = new Map<string, number>();
  for (const option of options) categories.set(categoryOf(option.name), (categories.get(categoryOf(option.name)) ?? 0) + 1);
  const top = family.topCategories.map((category) => `  - ${category}: ${pythonThousands(categories.get(category) ?? 0)} options`);
  return answer(
    [
      `${family.label} Statistics:`,
      `• Total options: ${pythonThousands(options.length)}`,
      `• Categories: ${categories.size}`,
      '• Top categories:',
      ...top,
    ].join('\n'),
  );
}

// str.isidentifier(), str.islower() and str.isdigit() for the category filter.
const identifier = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;
const isLower = (text: string) => /\p{Ll}/u.test(text) && !/[\p{Lu}\p{Lt}]/u.test(text);

function isCategory(category: string, family: PageFamily): boolean {
  if (!(category.length > 1 && identifier.test(category) && (isLower(category) || category.startsWith('_')))) return false;
  return family.knownCategories.has(category) || (category.length >= 3 && !/\p{Nd}/u.test(category));
}

async function listOptions(context: NixosContext, family: PageFamily) {
  const options = await loadOptions(context, family, { limit: family.listLimit });
  if (!Array.isArray(options)) return options;
  const categories = new Map<string, number>();
  for (const { name } of options) {
    if (!name || name.startsWith('.')) continue;
    const category = categoryOf(name);
    if (isCategory(category, family)) categories.set(category, (categories.get(category) ?? 0) + 1);
  }
  const sorted = [...categories].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return answer(
    [`${family.label} option categories (${categories.size} total):\n`, ...sorted.map(([category, count]) => `• ${category} (${count} options)`)].join('\n'),
  );
}

async function byPrefix(context: NixosContext, family: PageFamily, args: Record<string, unknown>) {
  const prefix = String(args.option_prefix);
  const options = await loadOptions(context, family, { prefix });
  if (!Array.isArray(options)) return options;
  if (options.length === 0) return answer(`No ${family.label} options found with prefix '${prefix}'`);
  const sorted = [...options].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return answer(
    joinStripped([`${family.label} options with prefix '${prefix}' (${options.length} found):\n`, ...sorted.flatMap((option) => optionLines(option, false))]),
  );
}

function familyTools(family: PageFamily): NixosTool[] {
  const what = family.page === 'home-manager' ? 'Home Manager' : 'nix-darwin macOS';
  return [
    {
      name: `${family.tool}_search`,
      description: `Search ${what} configuration options by name and description.\nArgs:\n  query (str): Search term to match against option names and descriptions.\n  limit (int): Maximum number of results to return (1–100).\nReturns:\n  result (str): Plain-text list of matching options with basic details.`,
      shape: { query: z.string(), limit: z.number().int().default(20) },
      run: (context, args) => search(context, family, args),
    },
    {
      name: `${family.tool}_info`,
      description: `Get detailed information for a specific ${family.label} option.\nArgs:\n  name (str): Exact ${family.label} option name.\nReturns:\n  result (str): Plain-text option details or an error with suggestions.`,
      shape: { name: z.string() },
      run: (context, args) => info(context, family, args),
    },
    {
      name: `${family.tool}_stats`,
      description: `Get aggregate statistics about ${family.label} options.\nArgs:\nReturns:\n  result (str): Plain-text summary of option counts by category and type.`,
      shape: {},
      run: (context) => stats(context, family),
    },
    {
      name: `${family.tool}_list_options`,
      description: `List all top-level ${family.label} option categories with counts.\nArgs:\nReturns:\n  result (str): Plain-text list of categories and option counts.`,
      shape: {},
      run: (context) => listOptions(context, family),
    },
    {
      name: `${family.tool}_options_by_prefix`,
      description: `List ${family.label} options whose names share a given prefix.\nArgs:\n  option_prefix (str): Prefix such as ${family.example}.\nReturns:\n  result (str): Plain-text list of matching options with descriptions.`,
      shape: { option_prefix: z.string() },
      run: (context, args) => byPrefix(context, family, args),
    },
  ];
}

export const homeManagerTools = familyTools(homeManager);
export const darwinTools = familyTools(darwin);
