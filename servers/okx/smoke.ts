// `m3 servers check --smoke` for `okx`: the latest BTC-USDT ticker. Offline, the fake answers
// /api/v5/market/ticker in the {code, msg, data} shape of the OKX v5 API documentation example.
import { acceptJson, type ServerSmoke } from '../shared/smoke.js';

const isTicker = acceptJson((value) => {
  const ticker = value as Record<string, unknown>;
  return ticker.instrument === 'BTC-USDT' && typeof ticker.lastPrice === 'string' && /^\d{4}-\d\d-\d\dT/.test(String(ticker.timestamp));
});

export const smoke: ServerSmoke = {
  tool: 'get_price',
  args: { instrument: 'BTC-USDT' },
  expectation: 'a JSON ticker for BTC-USDT with lastPrice, bid, ask and an ISO timestamp',
  accept: isTicker,
  offline: {
    env: { M3_UPSTREAM_OKX_URL: '' },
    routes: [
      {
        path: '/api/v5/market/ticker',
        reply: {
          body: {
            code: '0',
            msg: '',
            data: [
              {
                instType: 'SPOT',
                instId: 'BTC-USDT',
                last: '91436.1',
                lastSz: '0.0001',
                askPx: '91436.2',
                askSz: '0.5',
                bidPx: '91436.1',
                bidSz: '1.2',
                open24h: '90120.5',
                high24h: '92011',
                low24h: '89870.3',
                volCcy24h: '812345678.9',
                vol24h: '8912.3',
                sodUtc0: '90500.1',
                sodUtc8: '90210.4',
                ts: '1763640000000',
              },
            ],
          },
        },
      },
    ],
  },
};
