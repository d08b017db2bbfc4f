// Smoke call of the Reddit server: hot posts of one subreddit. Offline, fakes of the OAuth token
// endpoint and of oauth.reddit.com answer in Reddit's documented shapes.
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'search_hot_posts',
  args: { subreddit: 'MachineLearning', limit: 1 },
  expectation: 'one "- <title>" block with Score, Author and Link lines',
  accept: (text) => /^- .+\n {2}Score: -?\d+ \| Comments: \d+\n {2}Author: .+\n {2}Link: https:\/\/reddit\.com\/r\//.test(text),
  requiresEnv: ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'REDDIT_REFRESH_TOKEN'],
  offline: {
    env: { M3_UPSTREAM_REDDIT_AUTH_URL: '/www', M3_UPSTREAM_REDDIT_URL: '/oauth' },
    credentials: { REDDIT_CLIENT_ID: 'offline-id', REDDIT_CLIENT_SECRET: 'offline-secret', REDDIT_REFRESH_TOKEN: 'offline-refresh' },
    routes: [
      // Shapes of www.reddit.com/dev/api: the OAuth token answer and a t3 Listing.
      {
        path: '/www/api/v1/access_token',
        method: 'POST',
        reply: { body: { access_token: 'offline-token', token_type: 'bearer', expires_in: 86400, scope: '*' } },
      },
      {
        path: '/oauth/r/MachineLearning/hot',
        reply: {
          body: {
            kind: 'Listing',
            data: {
              children: [
                {
                  kind: 't3',
                  data: {
                    title: '[D] Simple Questions Thread',
                    score: 12,
                    num_comments: 40,
                    author: 'AutoModerator',
                    permalink: '/r/MachineLearning/comments/1x/d_simple_questions_thread/',
                  },
                },
              ],
            },
          },
        },
      },
    ],
  },
};
