// Smoke call of the amazon server: one product search. Offline, a fake of the Rainforest API
// answers in its documented search shape.
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'search_products',
  args: { keywords: 'usb c cable', n: 1 },
  expectation: 'one "- <title>" block with a Price line',
  accept: (text) => /^- .+\n {2}https?:\/\/\S+\n {2}\S*\n {2}Price: \S+/.test(text),
  requiresEnv: ['RAINFOREST_API_KEY'],
  offline: {
    env: { M3_UPSTREAM_RAINFOREST_URL: '' },
    credentials: { RAINFOREST_API_KEY: 'offline-smoke-placeholder' },
    routes: [
      {
        path: '/request',
        reply: {
          // Shape of Rainforest's type=search answer (request_info, search_results[] with title/asin/link/image/price).
          body: {
            request_info: { success: true },
            search_results: [
              {
                position: 1,
                title: 'USB C Cable 6ft',
                asin: 'B000000001',
                link: 'https://www.amazon.com/dp/B000000001',
                image: 'https://m.media-amazon.com/images/I/example.jpg',
                price: { symbol: '$', value: 9.99, currency: 'USD', raw: '$9.99' },
              },
            ],
          },
        },
      },
    ],
  },
};
