// Smoke call of the linkimage-mcp server: fetch one Unsplash photo. Offline, a fake of
// api.unsplash.com answers GET /photos/:id in its documented shape and serves a 1×1 PNG.
import type { ServerSmoke } from '../shared/smoke.js';

const onePixelPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export const smoke: ServerSmoke = {
  tool: 'fetch_unsplash_image',
  args: { url: 'https://unsplash.com/photos/brown-boat-on-water-near-city-buildings-during-daytime-8Rk1DqL_Lkc' },
  expectation: 'a "Downloaded ... photo successfully." message with a saved_path',
  // The first line is the tool's JSON text; the host describes the returned image on the next.
  accept: (text) => /^\{"message": "Downloaded '.*' photo successfully\.", "image_url": .*"saved_path": "[^"]+"\}$/.test(text.split('\n')[0] ?? ''),
  requiresEnv: ['UNSPLASH_ACCESS_KEY'],
  offline: {
    env: { M3_UPSTREAM_UNSPLASH_URL: '' },
    credentials: { UNSPLASH_ACCESS_KEY: 'offline-smoke-placeholder' },
    routes: [
      {
        path: '/photos/8Rk1DqL_Lkc',
        // Shape of unsplash.com/documentation#get-a-photo (id, urls.full, user.name, links.download_location).
        reply: (request) => ({
          body: {
            id: '8Rk1DqL_Lkc',
            urls: { full: `http://${request.headers.host}/images/8Rk1DqL_Lkc.png` },
            user: { name: 'Offline Photographer' },
            links: { download_location: `http://${request.headers.host}/photos/8Rk1DqL_Lkc/download` },
          },
        }),
      },
      { path: '/images/8Rk1DqL_Lkc.png', reply: { body: onePixelPng, headers: { 'content-type': 'image/png' } } },
      { path: '/photos/8Rk1DqL_Lkc/download', reply: { body: { url: 'https://images.unsplash.com/photo' } } },
    ],
  },
};
