// `m3 servers check --smoke` for `openlibrary_mcp`: one ISBN lookup. Offline, the fake answers
// /api/books in the jscmd=data shape of the Books API documentation example (ISBN:0451526538).
import { acceptJson, type ServerSmoke } from '../shared/smoke.js';

const isBookAnswer = acceptJson((value) => {
  const answer = value as { query_type?: unknown; metadata?: { title?: unknown; authors?: unknown } };
  return answer.query_type === 'isbn' && typeof answer.metadata?.title === 'string' && Array.isArray(answer.metadata.authors);
});

export const smoke: ServerSmoke = {
  tool: 'get_book_info',
  args: { isbn: '0451526538' },
  expectation: 'a JSON answer with query_type "isbn" and the book title and authors under "metadata"',
  accept: isBookAnswer,
  offline: {
    env: { M3_UPSTREAM_OPENLIBRARY_URL: '' },
    routes: [
      {
        path: '/api/books',
        reply: {
          body: {
            'ISBN:0451526538': {
              url: 'https://openlibrary.org/books/OL1017798M/The_adventures_of_Tom_Sawyer',
              key: '/books/OL1017798M',
              title: 'The adventures of Tom Sawyer',
              authors: [{ url: 'https://openlibrary.org/authors/OL18319A/Mark_Twain', name: 'Mark Twain' }],
              number_of_pages: 216,
              publishers: [{ name: 'Signet Classic' }],
              publish_date: '1997',
            },
          },
        },
      },
    ],
  },
};
