// `m3 servers check --smoke` for `wiki`: one page summary. Offline, a fake REST summary endpoint
// answers in the documented page-summary shape (type/title/description/extract, as
// en.wikipedia.org/api/rest_v1/page/summary/{title} returns them).
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'summary',
  args: { title: 'Common carp' },
  expectation: 'a "**Common carp**" block with a description and an extract',
  accept: (text) => text.startsWith('**Common carp**\n') && text.split('\n\n')[1] !== '',
  offline: {
    env: { M3_UPSTREAM_WIKIPEDIA_URL: '', M3_UPSTREAM_WIKIMEDIA_API_URL: '' },
    routes: [
      {
        path: '/api/rest_v1/page/summary/Common%20carp',
        reply: {
          body: {
            type: 'standard',
            title: 'Common carp',
            displaytitle: 'Common carp',
            lang: 'en',
            description: 'Species of fish',
            extract: 'The common carp or European carp is a widespread freshwater fish of eutrophic waters in lakes and large rivers in Europe and Asia.',
          },
        },
      },
    ],
  },
};
