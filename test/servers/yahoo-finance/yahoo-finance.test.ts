// The `yahoo-finance` server as a real child process over MCP stdio against a loopback fake of the
// Yahoo Finance endpoints yfinance calls (cookie + crumb handshake, chart, quoteSummary, v7 quote,
// fundamentals timeseries, options, news): the reference's answers for the GT calls, written the
// way pandas and Python's json wrote them, the requests sent, and typed outages.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFake, type HttpFake, type RecordedRequest } from '../../../servers/shared/http-fake.js';
import { zonedMidnight } from '../../../servers/yahoo-finance/history.js';
import { smoke } from '../../../servers/yahoo-finance/smoke.js';
import { argumentCheckProblems, catalogTools, distinctArguments, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { describeFixturesAndSmoke, loadFixtureBody, loadFixtureText, startWebServer, type WebServer } from '../../support/web-server.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const calls = gtCalls('yahoo-finance');
const day = 86_400;
const now = Math.floor(Date.now() / 1000);

let fake: HttpFake;
let server: WebServer;

/** A fixture served as its exact JSON text (Yahoo's "600.0" must reach the server as a float literal). */
const json = (name: string) => ({ body: loadFixtureText(fixtures, name), headers: { 'content-type': 'application/json' } });

/** Yahoo refuses API calls without the session cookie and crumb (401 "Invalid Crumb"). */
const needsCrumb = (reply: (request: RecordedRequest) => { status?: number; body: unknown; headers?: Record<string, string> }) => (request: RecordedRequest) =>
  request.query.crumb === 'fakeCrumb42' && String(request.headers.cookie ?? '').includes('A3=d=test')
    ? reply(request)
    : { status: 401, body: { finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } } };

const history = [
  {
    epochGradeDate: now - 10 * day,
    firm: 'Morgan Stanley',
    toGrade: 'Overweight',
    fromGrade: 'Overweight',
    action: 'main',
    priceTargetAction: 'Raises',
    currentPriceTarget: 650,
    priorPriceTarget: 600,
  },
  {
    epochGradeDate: now - 40 * day,
    firm: 'Morgan Stanley',
    toGrade: 'Overweight',
    fromGrade: 'Equal-Weight',
    action: 'up',
    priceTargetAction: 'Raises',
    currentPriceTarget: 600,
    priorPriceTarget: 520,
  },
  {
    epochGradeDate: now - 20 * day,
    firm: 'Jefferies',
    toGrade: 'Buy',
    fromGrade: 'Buy',
    action: 'main',
    priceTargetAction: 'Maintains',
    currentPriceTarget: 675,
    priorPriceTarget: 675,
  },
  {
    epochGradeDate: now - 400 * day,
    firm: 'UBS',
    toGrade: 'Buy',
    fromGrade: 'Neutral',
    action: 'up',
    priceTargetAction: 'Raises',
    currentPriceTarget: 450,
    priorPriceTarget: 380,
  },
];

beforeAll(async () => {
  fake = await startHttpFake([
    {
      path: '/fc',
      reply: {
        status: 404,
        headers: { 'set-cookie': 'A3=d=test&S=x; Expires=Wed, 01 Dec 2027 00:00:00 GMT; Path=/; Domain=.yahoo.com; Secure; HttpOnly' },
        body: 'Not Found',
      },
    },
    {
      path: '/q1/v1/test/getcrumb',
      reply: (request) =>
        String(request.headers.cookie).includes('A3=d=test') ? { body: 'fakeCrumb42', headers: { 'content-type': 'text/plain' } } : { status: 401, body: '' },
    },
    { path: '/q2/v8/finance/chart/ZZZZZ', reply: { status: 404, body: loadFixtureBody(fixtures, 'chart-not-found') } },
    {
      path: /^\/q2\/v8\/finance\/chart\/[^/]+$/,
      reply: needsCrumb((request) =>
        json(request.query.range === '1d' ? 'chart-msft-range-1d' : request.query.range === 'max' ? 'chart-msft-max-events' : 'chart-msft-2024-10'),
      ),
    },
    { path: '/q2/v10/finance/quoteSummary/ZZZZZ', reply: { status: 404, body: loadFixtureBody(fixtures, 'quote-summary-not-found') } },
    {
      path: /^\/q2\/v10\/finance\/quoteSummary\/[^/]+$/,
      reply: needsCrumb((request) =>
        request.query.modules === 'upgradeDowngradeHistory'
          ? { body: { quoteSummary: { result: [{ upgradeDowngradeHistory: { history, maxAge: 86400 } }], error: null } } }
          : String(request.query.modules).includes('majorHoldersBreakdown')
            ? json('quote-summary-holders')
            : json('quote-summary-info'),
      ),
    },
    { path: '/q1/v7/finance/quote', reply: needsCrumb((request) => json(request.query.symbols === 'ZZZZZ' ? 'quote-v7-empty' : 'quote-v7')) },
    { path: /^\/q1\/ws\/fundamentals-timeseries\/v1\/finance\/timeseries\//, reply: needsCrumb(() => json('timeseries-peg')) },
    { path: /^\/q2\/ws\/fundamentals-timeseries\/v1\/finance\/timeseries\//, reply: needsCrumb(() => json('timeseries-income')) },
    { method: 'POST', path: '/root/xhr/ncp', reply: needsCrumb(() => json('news-stream')) },
    { path: /^\/q2\/v7\/finance\/options\//, reply: needsCrumb(() => json('options-msft')) },
  ]);
  server = await startWebServer('servers/yahoo-finance/index.ts', {
    M3_UPSTREAM_YAHOO_COOKIE_URL: `${fake.url}/fc`,
    M3_UPSTREAM_YAHOO_QUERY1_URL: `${fake.url}/q1`,
    M3_UPSTREAM_YAHOO_QUERY2_URL: `${fake.url}/q2`,
    M3_UPSTREAM_YAHOO_ROOT_URL: `${fake.url}/root`,
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const msftHistory =
  '[{"Date":"2024-10-01T04:00:00.000Z","Open":428.450012207,"High":428.4800109863,"Low":418.8099975586,"Close":420.6900024414,"Volume":19169700,"Dividends":0.0,"Stock Splits":0.0},' +
  '{"Date":"2024-10-02T04:00:00.000Z","Open":419.9358697309,"High":420.1743886538,"Low":414.1026036436,"Close":414.5199890137,"Volume":16582300,"Dividends":0.0,"Stock Splits":0.0}]';

describe('yahoo-finance tool surface', () => {
  it('lists the nine reference tools with their schemas and accepts every GT call', (context) => {
    expect(server.tools).toHaveLength(9);
    const catalog = catalogTools('yahoo-finance');
    if (!catalog || !calls) return context.skip('shared M3-Bench data not found under ../shared/data/m3bench');
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls.length).toBeGreaterThanOrEqual(70);
    expect(argumentCheckProblems('yahoo-finance', server.tools, calls)).toEqual([]);
  });
});

describe('yahoo-finance/get_historical_stock_prices', () => {
  it('reads the dates as New York midnight (end exclusive), as yfinance does', () => {
    expect(zonedMidnight('2024-10-01', 'America/New_York')).toBe(1727755200);
    expect(zonedMidnight('2024-10-03', 'America/New_York')).toBe(1727928000);
    expect(zonedMidnight('2024-12-02', 'America/New_York')).toBe(1733115600);
  });

  it('answers every GT call with the pandas records layout and sends the chart parameters with the crumb', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    for (const args of distinctArguments(calls, 'get_historical_stock_prices')) {
      const result = await server.call('get_historical_stock_prices', args);
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toBe(msftHistory);
      const request = fake.requestsTo(`/q2/v8/finance/chart/${String(args.ticker)}`).at(-1);
      expect(request?.query).toEqual({
        period1: '1727755200',
        period2: '1727928000',
        interval: '1d',
        includePrePost: 'False',
        events: 'div,splits,capitalGains',
        crumb: 'fakeCrumb42',
      });
      expect(request?.headers.cookie).toBe('A3=d=test&S=x');
    }
    expect(fake.requestsTo('/fc')).toHaveLength(1);
    expect(fake.requestsTo('/q1/v1/test/getcrumb')).toHaveLength(1);
  });

  it('says the company is not found for a symbol Yahoo does not know', async () => {
    const result = await server.call('get_historical_stock_prices', { ticker: 'ZZZZZ', start_date: '2024-10-01', end_date: '2024-10-03' });
    expect(result).toMatchObject({ isError: false, text: 'Company ticker ZZZZZ not found.' });
  });
});

describe('yahoo-finance/get_stock_info', () => {
  it('answers every GT ticker with the info dict yfinance assembles, dumped by Python json', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    const expected = loadFixtureBody<string>(fixtures, 'expected-info');
    for (const args of distinctArguments(calls, 'get_stock_info').slice(0, 4)) {
      const result = await server.call('get_stock_info', args);
      expect(result.isError, result.text).toBe(false);
      // yfinance writes the ticker asked for into result[0].symbol of both answers.
      expect(result.text).toBe(expected.replace('"symbol": "MSFT"', `"symbol": "${String(args.ticker)}"`));
      const summary = fake.requestsTo(`/q2/v10/finance/quoteSummary/${String(args.ticker)}`).at(-1);
      expect(summary?.query).toMatchObject({
        modules: 'financialData,quoteType,defaultKeyStatistics,assetProfile,summaryDetail',
        corsDomain: 'finance.yahoo.com',
        formatted: 'false',
        symbol: args.ticker,
      });
      expect(fake.requestsTo('/q1/v7/finance/quote').at(-1)?.query).toMatchObject({ symbols: args.ticker, formatted: 'false' });
    }
  });

  it('says the company is not found when Yahoo has neither a summary nor a quote', async () => {
    expect(await server.call('get_stock_info', { ticker: 'ZZZZZ' })).toMatchObject({ isError: false, text: 'Company ticker ZZZZZ not found.' });
  });
});

describe('yahoo-finance/get_recommendations', () => {
  it('keeps the latest grade per firm within months_back, newest first', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    const iso = (offsetDays: number) => new Date((now - offsetDays * day) * 1000).toISOString();
    const expected =
      `[{"GradeDate":"${iso(10)}","Firm":"Morgan Stanley","ToGrade":"Overweight","FromGrade":"Overweight","Action":"main","priceTargetAction":"Raises","currentPriceTarget":650,"priorPriceTarget":600},` +
      `{"GradeDate":"${iso(20)}","Firm":"Jefferies","ToGrade":"Buy","FromGrade":"Buy","Action":"main","priceTargetAction":"Maintains","currentPriceTarget":675,"priorPriceTarget":675}]`;
    for (const args of distinctArguments(calls, 'get_recommendations')) {
      const result = await server.call('get_recommendations', args);
      expect(result.text).toBe(expected);
      expect(fake.requests.at(-1)?.query).toMatchObject({ modules: 'upgradeDowngradeHistory', formatted: 'false' });
    }
  });

  it('refuses an unknown recommendation type in the reference words', async () => {
    expect((await server.call('get_recommendations', { ticker: 'MSFT', recommendation_type: 'rumours' })).text).toBe('Invalid recommendation_type: rumours');
  });
});

describe('yahoo-finance options', () => {
  it('lists expiration dates and returns a chain side with yfinance columns', async () => {
    expect((await server.call('get_option_expiration_dates', { ticker: 'MSFT' })).text).toBe('["2025-11-28", "2025-12-05"]');
    const chain = await server.call('get_option_chain', { ticker: 'MSFT', expiration_date: '2025-11-28', option_type: 'calls' });
    expect(chain.text).toBe(
      '[{"contractSymbol":"MSFT251128C00400000","lastTradeDate":"2025-11-26T15:00:00.000Z","strike":400.0,"lastPrice":86.5,"bid":85.9,"ask":87.35,"change":0.0,"percentChange":0.0,"volume":3,"openInterest":41,"impliedVolatility":0.5996,"inTheMoney":true,"contractSize":"REGULAR","currency":"USD"}]',
    );
    expect(fake.requestsTo(/^\/q2\/v7\/finance\/options\//).at(-1)?.query).toMatchObject({ date: '1764288000' });
    expect((await server.call('get_option_chain', { ticker: 'MSFT', expiration_date: '2031-01-17', option_type: 'calls' })).text).toBe(
      'No options available for 2031-01-17.',
    );
    expect((await server.call('get_option_chain', { ticker: 'MSFT', expiration_date: '2025-11-28', option_type: 'straddle' })).text).toBe(
      "Invalid option type: straddle. Use 'calls' or 'puts'.",
    );
  });
});

describe('yahoo-finance news, actions, holders and statements', () => {
  it('posts the news query and prints top-level title/link as the reference did (blank for the current item shape), ads left out', async () => {
    const result = await server.call('get_yahoo_finance_news', { ticker: 'MSFT' });
    expect(result.text).toBe('- \n  \n\n- Microsoft to invest in AI data centers\n  https://finance.yahoo.com/news/microsoft-invest-ai-data-centers.html');
    const request = fake.requestsTo('/root/xhr/ncp').at(-1);
    expect(request?.query).toMatchObject({ queryRef: 'latestNews', serviceKey: 'ncp_fin' });
    expect(JSON.parse(request?.body ?? '{}')).toEqual({ serviceConfig: { snippetCount: 10, s: ['MSFT'] } });
  });

  it('lists dividend and split days from the full daily history', async () => {
    const result = await server.call('get_stock_actions', { ticker: 'MSFT' });
    expect(result.text).toBe(
      '[{"Date":"2003-02-18T05:00:00.000Z","Dividends":0.0,"Stock Splits":2.0},{"Date":"2024-11-21T05:00:00.000Z","Dividends":0.83,"Stock Splits":0.0}]',
    );
    expect(fake.requestsTo('/q2/v8/finance/chart/MSFT').at(-1)?.query).toMatchObject({ range: 'max', interval: '1d', events: 'div,splits,capitalGains' });
  });

  it('builds the holder tables (major holders as metric/Value, institutional dates in epoch ms)', async () => {
    expect((await server.call('get_holder_info', { ticker: 'MSFT', holder_type: 'major_holders' })).text).toBe(
      '[{"metric":"insidersPercentHeld","Value":0.00062},{"metric":"institutionsPercentHeld","Value":0.7392},{"metric":"institutionsFloatPercentHeld","Value":0.73966},{"metric":"institutionsCount","Value":7234.0}]',
    );
    expect((await server.call('get_holder_info', { ticker: 'MSFT', holder_type: 'institutional_holders' })).text).toBe(
      '[{"Date Reported":1751241600000,"Holder":"Vanguard Group Inc","pctHeld":0.0931,"Shares":692060563,"Value":288685141574,"pctChange":0.0123}]',
    );
    expect((await server.call('get_holder_info', { ticker: 'MSFT', holder_type: 'owners' })).text).toBe('Error: invalid holder type owners.');
  });

  it('dumps a statement newest period first with Python floats, in yfinance field order', async () => {
    const result = await server.call('get_financial_statement', { ticker: 'MSFT', financial_type: 'income_stmt' });
    expect(result.text).toBe(
      '[{"date": "2025-06-30", "NetIncome": 101832000000.0, "TotalRevenue": 281724000000.0}, {"date": "2024-06-30", "NetIncome": 88136000000.0, "TotalRevenue": 245122000000.0}]',
    );
    const type = String(fake.requestsTo(/^\/q2\/ws\/fundamentals-timeseries\//).at(-1)?.query.type).split(',');
    expect(type[0]).toBe('annualTaxEffectOfUnusualItems');
    expect(type).toContain('annualTotalRevenue');
    expect((await server.call('get_financial_statement', { ticker: 'MSFT', financial_type: 'ledger' })).text).toBe('Error: invalid financial type ledger');
  });
});

describe('yahoo-finance crumb renewal and typed failures', () => {
  it('renews the cookie and crumb once after a 401 Invalid Crumb', async () => {
    const before = fake.requestsTo('/q1/v1/test/getcrumb').length;
    fake.queueFault(/^\/q2\/v8\/finance\/chart\//, {
      status: 401,
      body: { finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } },
    });
    const result = await server.call('get_historical_stock_prices', { ticker: 'NFLX', start_date: '2024-10-01', end_date: '2024-10-03' });
    expect(result).toMatchObject({ isError: false, text: msftHistory });
    expect(fake.requestsTo('/q1/v1/test/getcrumb').length).toBe(before + 1);
  });

  it('429, 500, malformed JSON, a chart with neither result nor error, and a slow answer', async () => {
    fake.queueFault(/^\/q2\/v10\/finance\/quoteSummary\//, { status: 429, headers: { 'retry-after': '5' }, body: 'Too Many Requests' });
    expect((await server.call('get_stock_info', { ticker: 'MSFT' })).errorMeta).toEqual({
      code: 'upstream_rate_limited',
      status: 429,
      retryAfterSec: 5,
      upstream: '127.0.0.1',
    });
    fake.queueFault(/^\/q2\/v8\/finance\/chart\//, { status: 502 });
    expect((await server.call('get_historical_stock_prices', { ticker: 'IBM', start_date: '2024-10-01', end_date: '2024-10-03' })).errorMeta).toMatchObject({
      code: 'upstream_server_error',
      status: 502,
    });
    fake.queueFault('/q1/v7/finance/quote', { body: '{"quoteResponse": {"result": [' });
    expect((await server.call('get_stock_info', { ticker: 'MSFT' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault(/^\/q2\/v8\/finance\/chart\//, { body: { chart: {} } });
    expect((await server.call('get_historical_stock_prices', { ticker: 'AMD', start_date: '2024-10-01', end_date: '2024-10-03' })).errorMeta?.code).toBe(
      'upstream_bad_response',
    );
    fake.queueFault(/^\/q2\/v7\/finance\/options\//, slowReply({}));
    const slow = await server.callWithShortTimeout('get_option_expiration_dates', { ticker: 'MSFT' });
    expect(slow.errorMeta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });
});

describeFixturesAndSmoke('yahoo-finance', 'servers/yahoo-finance/index.ts', smoke, () => server);
