// Smoke call of the tmdb server: search one title. Offline, a fake of api.themoviedb.org answers
// in the documented /search/movie shape.
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'search_movies',
  args: { query: 'Inception', year: 2010 },
  expectation: 'a /search/movie page with results',
  accept: (text) => /"results": \[/.test(text) && /"total_results": \d+/.test(text),
  requiresEnv: ['TMDB_ACCESS_TOKEN'],
  offline: {
    env: { M3_UPSTREAM_TMDB_URL: '' },
    credentials: { TMDB_ACCESS_TOKEN: 'offline-smoke-placeholder' },
    routes: [
      {
        path: '/3/search/movie',
        // Shape of developer.themoviedb.org/reference/search-movie (page, results[], total_pages, total_results).
        reply: {
          body: {
            page: 1,
            results: [
              { id: 27205, title: 'Inception', original_title: 'Inception', release_date: '2010-07-15', overview: 'Cobb, a skilled thief…', vote_average: 8.4 },
            ],
            total_pages: 1,
            total_results: 1,
          },
        },
      },
    ],
  },
};
