// `m3 servers check --smoke` for `hugeicons-mcp`: one icon search. Offline, the fake answers
// search.hugeicons.com/search in the {query, fuzzy_enabled, total, results} shape.
import { acceptJson, type ServerSmoke } from '../shared/smoke.js';

const hasIcons = acceptJson((value) => Array.isArray(value) && value.length > 0 && value.every((icon: { name?: unknown }) => typeof icon?.name === 'string'));

export const smoke: ServerSmoke = {
  tool: 'search_icons',
  args: { query: 'tree' },
  expectation: 'a JSON array of icons with id, name, tags, category, featured and version',
  accept: hasIcons,
  offline: {
    env: { M3_UPSTREAM_HUGEICONS_SEARCH_URL: '/search-api', M3_UPSTREAM_HUGEICONS_URL: '/site', M3_UPSTREAM_HUGEICONS_API_URL: '/api/v1' },
    routes: [
      {
        path: '/search-api/search',
        reply: {
          body: {
            query: 'tree',
            fuzzy_enabled: true,
            total: 1,
            results: [
              {
                id: 'tree-06',
                score: 12.4,
                name: 'tree-06',
                tags: ['tree', 'nature', 'plant'],
                category: 'nature',
                featured: false,
                version: '1.0.0',
                highlights: { name: ['<em>tree</em>-06'] },
              },
            ],
          },
        },
      },
    ],
  },
};
