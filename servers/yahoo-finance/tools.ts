// The tools of the `yahoo-finance` MCP server: the reference's nine tools (the reference project's servers/yahoo.py, which wraps
// yfinance), same names, arguments and answers, built from the Yahoo Finance endpoints yfinance
// 0.2.66 calls (yahoo-client.ts). Two differences, both deliberate: the reference's
// `company.isin is None` gate asked markets.businessinsider.com (not Yahoo) and in practice never
// fired, so it is not reproduced; instead a symbol Yahoo does not know answers "Company ticker X
// not found.", the words that gate was meant to give. Yahoo outages are typed errors; what the
// reference answered as "Error: getting … for X: …" for a refused request stays in those words.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { pythonJsonDumps } from '../shared/python-format.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { errorResult, guarded, textResult } from '../shared/tool-result.js';
import { recordsJson } from './frame-json.js';
import { actionsJson, HistoryClient, historyDtypes, zonedMidnight } from './history.js';
import { holdersJson, holderTypes, type HolderType } from './holders.js';
import { fetchInfo } from './info.js';
import { newsText } from './news.js';
import { expirationDatesJson, expirations, optionChainJson } from './options.js';
import { recommendationsJson, upgradesDowngradesJson } from './recommendations.js';
import { financialTypes, statementJson, type FinancialType } from './statements.js';
import { YahooClient } from './yahoo-client.js';

const ticker = z.string().describe('Stock ticker symbol.');
const notFound = (symbol: string) => textResult(`Company ticker ${symbol} not found.`);

/** Runs a tool body; anything but an outage is answered as the reference's `Error: <what>: <e>` text. */
async function worded(what: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  return guarded(async () => {
    try {
      return await body();
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      return errorResult(`Error: ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

const describe = (summary: string, args: string[], returns: string) =>
  `${summary}\nArgs:\n${args.map((line) => `  ${line}`).join('\n')}\nReturns:\n  ${returns}`;

export function registerYahooFinanceTools(server: McpServer): void {
  const client = new YahooClient();
  const history = new HistoryClient(client);
  const register = (name: string, description: string, inputSchema: z.ZodRawShape, handler: (args: Record<string, unknown>) => Promise<CallToolResult>) =>
    server.registerTool(name, { description, inputSchema, annotations: { readOnlyHint: true, openWorldHint: true } }, (args: Record<string, unknown>) =>
      handler(args),
    );

  register(
    'get_historical_stock_prices',
    describe(
      'Get historical stock price OHLCV data for a ticker from Yahoo Finance.',
      [
        'ticker (str): Stock ticker symbol.',
        'start_date (str): Start date in YYYY-MM-DD format.',
        'end_date (str): End date in YYYY-MM-DD format.',
        'interval (str): Price interval such as 1d or 1h.',
      ],
      'result (str): JSON array of records with date and price fields.',
    ),
    {
      ticker,
      start_date: z.string().describe('Start date in YYYY-MM-DD format.'),
      end_date: z.string().describe('End date in YYYY-MM-DD format.'),
      interval: z.string().default('1d').describe('Price interval such as 1d or 1h.'),
    },
    async (args) => {
      const symbol = String(args.ticker);
      return worded(`getting historical stock prices for ${symbol}`, async () => {
        const zone = await history.timeZone(symbol);
        if (!zone) return notFound(symbol);
        const query = { period1: String(zonedMidnight(String(args.start_date), zone)), period2: String(zonedMidnight(String(args.end_date), zone)) };
        const rows = (await history.rows(symbol, query, String(args.interval))) ?? [];
        const columns = [
          'Date',
          'Open',
          'High',
          'Low',
          'Close',
          'Volume',
          'Dividends',
          'Stock Splits',
          ...(rows.some((row) => 'Capital Gains' in row) ? ['Capital Gains'] : []),
        ];
        return textResult(recordsJson(rows, columns, { dtypes: historyDtypes }));
      });
    },
  );
  register(
    'get_stock_info',
    describe(
      'Get general stock and company information for a ticker from Yahoo Finance.',
      ['ticker (str): Stock ticker symbol.'],
      'result (str): JSON object of Yahoo Finance info fields.',
    ),
    { ticker },
    async (args) => {
      const symbol = String(args.ticker);
      return worded(`getting stock information for ${symbol}`, async () => {
        const info = await fetchInfo(client, symbol);
        return info ? textResult(pythonJsonDumps(info)) : notFound(symbol);
      });
    },
  );
  register(
    'get_yahoo_finance_news',
    describe(
      'Get recent news items for a ticker from Yahoo Finance.',
      ['ticker (str): Stock ticker symbol.'],
      'result (str): Plain-text list of titles and links for each news item.',
    ),
    { ticker },
    async (args) => worded(`getting news for ${String(args.ticker)}`, async () => textResult(await newsText(client, String(args.ticker)))),
  );
  register(
    'get_stock_actions',
    describe(
      'Get dividend and split actions for a ticker from Yahoo Finance.',
      ['ticker (str): Stock ticker symbol.'],
      'result (str): JSON array of corporate action records.',
    ),
    { ticker },
    async (args) =>
      worded(`getting stock actions for ${String(args.ticker)}`, async () => textResult((await actionsJson(history, String(args.ticker))) ?? '[]')),
  );
  register(
    'get_financial_statement',
    describe(
      'Get a selected financial statement for a ticker from Yahoo Finance.',
      ['ticker (str): Stock ticker symbol.', 'financial_type (str): Statement type such as income_stmt or balance_sheet.'],
      'result (str): JSON array of statement records keyed by date.',
    ),
    { ticker, financial_type: z.string().describe(`Statement type: ${financialTypes.join(', ')}.`) },
    async (args) => {
      const type = String(args.financial_type);
      if (!(financialTypes as readonly string[]).includes(type)) return errorResult(`Error: invalid financial type ${type}`);
      return worded(`getting financial statement for ${String(args.ticker)}`, async () =>
        textResult(await statementJson(client, String(args.ticker), type as FinancialType)),
      );
    },
  );
  register(
    'get_holder_info',
    describe(
      'Get holder or ownership information for a ticker from Yahoo Finance.',
      ['ticker (str): Stock ticker symbol.', 'holder_type (str): Holder info type such as major_holders or institutional_holders.'],
      'result (str): JSON array of holder records.',
    ),
    { ticker, holder_type: z.string().describe(`Holder info type: ${holderTypes.join(', ')}.`) },
    async (args) => {
      const type = String(args.holder_type);
      if (!(holderTypes as readonly string[]).includes(type)) return errorResult(`Error: invalid holder type ${type}.`);
      return worded('fetching holder info', async () => textResult(await holdersJson(client, String(args.ticker), type as HolderType)));
    },
  );
  register(
    'get_option_expiration_dates',
    describe(
      'Get available option expiration dates for a ticker.',
      ['ticker (str): Stock ticker symbol.'],
      'result (str): JSON list of expiration date strings.',
    ),
    { ticker },
    async (args) =>
      worded(`getting option expiration dates for ${String(args.ticker)}`, async () => textResult(await expirationDatesJson(client, String(args.ticker)))),
  );
  register(
    'get_option_chain',
    describe(
      'Get an option chain for a ticker, expiration date, and calls or puts side.',
      [
        'ticker (str): Stock ticker symbol.',
        'expiration_date (str): Expiration date in YYYY-MM-DD format.',
        "option_type (str): Which side to return, 'calls' or 'puts'.",
      ],
      'result (str): JSON array of option contracts.',
    ),
    { ticker, expiration_date: z.string().describe('Expiration date in YYYY-MM-DD format.'), option_type: z.string().describe("'calls' or 'puts'.") },
    async (args) => {
      const symbol = String(args.ticker);
      const date = String(args.expiration_date);
      return worded(`getting option chain for ${symbol}`, async () => {
        const epoch = (await expirations(client, symbol)).get(date);
        if (epoch === undefined) return textResult(`No options available for ${date}.`);
        const side = String(args.option_type);
        if (side !== 'calls' && side !== 'puts') return errorResult(`Invalid option type: ${side}. Use 'calls' or 'puts'.`);
        const chain = await optionChainJson(client, symbol, epoch, side);
        if (chain === undefined) throw new Error("'NoneType' object has no attribute 'to_json'");
        return textResult(chain);
      });
    },
  );
  register(
    'get_recommendations',
    describe(
      'Get analyst recommendations or upgrades/downgrades for a ticker.',
      [
        'ticker (str): Stock ticker symbol.',
        "recommendation_type (str): 'recommendations' or 'upgrades_downgrades'.",
        'months_back (int): How many months of history to include.',
      ],
      'result (str): JSON array of recommendation records.',
    ),
    {
      ticker,
      recommendation_type: z.string().describe("'recommendations' or 'upgrades_downgrades'."),
      months_back: z.number().int().default(12).describe('How many months of history to include.'),
    },
    async (args) => {
      const symbol = String(args.ticker);
      const type = String(args.recommendation_type);
      if (type !== 'recommendations' && type !== 'upgrades_downgrades') return errorResult(`Invalid recommendation_type: ${type}`);
      return worded(`getting recommendations for ${symbol}`, async () =>
        textResult(
          type === 'recommendations' ? await recommendationsJson(client, symbol) : await upgradesDowngradesJson(client, symbol, Number(args.months_back)),
        ),
      );
    },
  );
}
