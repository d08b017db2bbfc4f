// `m3 servers check --smoke` for `yahoo-finance`: two days of MSFT history. Offline, the fake
// answers the cookie/crumb handshake and /v8/finance/chart in Yahoo's chart shape.
import type { FakeReply } from '../shared/http-fake.js';
import type { ServerSmoke } from '../shared/smoke.js';

const chart = (timestamps: number[], close: number[]): FakeReply => ({
  body: {
    chart: {
      result: [
        {
          meta: { currency: 'USD', symbol: 'MSFT', instrumentType: 'EQUITY', gmtoffset: -14400, timezone: 'EDT', exchangeTimezoneName: 'America/New_York' },
          timestamp: timestamps,
          indicators: { quote: [{ open: close, high: close, low: close, close, volume: timestamps.map(() => 1000000) }], adjclose: [{ adjclose: close }] },
        },
      ],
      error: null,
    },
  },
});

export const smoke: ServerSmoke = {
  tool: 'get_historical_stock_prices',
  args: { ticker: 'MSFT', start_date: '2024-10-01', end_date: '2024-10-03', interval: '1d' },
  expectation: 'a JSON array of two daily records dated 2024-10-01 and 2024-10-02 with Open/High/Low/Close/Volume',
  accept: (text) => text.startsWith('[{"Date":"2024-10-01T04:00:00.000Z","Open":') && text.includes('{"Date":"2024-10-02T04:00:00.000Z"'),
  offline: {
    env: { M3_UPSTREAM_YAHOO_COOKIE_URL: '/fc', M3_UPSTREAM_YAHOO_QUERY1_URL: '/q1', M3_UPSTREAM_YAHOO_QUERY2_URL: '/q2', M3_UPSTREAM_YAHOO_ROOT_URL: '/root' },
    routes: [
      { path: '/fc', reply: { status: 404, headers: { 'set-cookie': 'A3=d=smoke; Path=/; Domain=.yahoo.com' }, body: '' } },
      { path: '/q1/v1/test/getcrumb', reply: { body: 'smokeCrumb', headers: { 'content-type': 'text/plain' } } },
      {
        path: '/q2/v8/finance/chart/MSFT',
        reply: (request) => (request.query.range === '1d' ? chart([1764340200], [486.74]) : chart([1727789400, 1727875800], [420.69, 417.13])),
      },
    ],
  },
};
