// OpenLibrary, as the reference `openlibrary_mcp` server (the reference project's servers/openlibrary_mcp.py) asks it:
// /api/books?bibkeys=ISBN:<isbn>&format=json&jscmd=data for an ISBN (a miss is a 200 whose
// object lacks the key), /search.json?q=<title [author]> otherwise (the first doc wins).
// Base URL: M3_UPSTREAM_OPENLIBRARY_URL (default https://openlibrary.org).
import { z } from 'zod';
import { upstreamBaseUrl, type HttpClient } from '../shared/http-client.js';
import { UpstreamClientError } from '../shared/upstream-error.js';
import { requestsHttpErrorText } from '../shared/reference-errors.js';

const named = z.object({ name: z.string() }).loose();
const bookSchema = z
  .object({
    authors: z.array(named).optional(),
    publishers: z.array(named).optional(),
    publish_date: z.unknown().optional(),
    number_of_pages: z.unknown().optional(),
  })
  .loose();
const booksSchema = z.record(z.string(), bookSchema);
const searchSchema = z.object({ docs: z.array(z.record(z.string(), z.unknown())).default([]) }).loose();

/** What the reference builds before it moves the book fields under "metadata". */
export type BookAnswer = Record<string, unknown>;

/** A 4xx from OpenLibrary: the reference caught it and answered {"error": "Network error: ..."}. */
export class OpenLibraryRequestError extends Error {}

const baseUrl = () => upstreamBaseUrl('M3_UPSTREAM_OPENLIBRARY_URL', 'https://openlibrary.org');

async function getJson<S extends z.ZodType>(http: HttpClient, url: URL, schema: S, what: string): Promise<z.output<S>> {
  try {
    return (await http.getJson(url.href, { schema, what })).body;
  } catch (error) {
    if (error instanceof UpstreamClientError) throw new OpenLibraryRequestError(`Network error: ${requestsHttpErrorText(error.status, url.href)}`);
    throw error;
  }
}

/** The reference's ISBN quirk: a 13-character ISBN starting with "0" gets "978" in place of it. */
function normalizeIsbn(isbn: string): string {
  return isbn.startsWith('0') && isbn.length === 13 ? `978${isbn.slice(1)}` : isbn;
}

export async function lookupIsbn(http: HttpClient, rawIsbn: string): Promise<BookAnswer> {
  const isbn = normalizeIsbn(rawIsbn);
  const url = new URL(`${baseUrl()}/api/books`);
  url.searchParams.set('bibkeys', `ISBN:${isbn}`);
  url.searchParams.set('format', 'json');
  url.searchParams.set('jscmd', 'data');
  const books = await getJson(http, url, booksSchema, 'books');
  const book = books[`ISBN:${isbn}`];
  if (!book) return { message: `Book not found for ISBN ${isbn}.` };
  return {
    query_type: 'isbn',
    isbn,
    title: 'title' in book ? book.title : 'Unknown',
    authors: (book.authors ?? []).map((author) => author.name),
    publish_date: book.publish_date ?? null,
    publisher: (book.publishers ?? []).map((publisher) => publisher.name),
    pages: book.number_of_pages ?? null,
  };
}

export async function searchTitle(http: HttpClient, title: string, author: string | null | undefined): Promise<BookAnswer> {
  const query = author ? `${title} ${author}` : title;
  const url = new URL(`${baseUrl()}/search.json`);
  url.searchParams.set('q', query);
  const { docs } = await getJson(http, url, searchSchema, 'search');
  const top = docs[0];
  if (!top) return { message: `No book found for query '${query}'.` };
  const isbns = 'isbn' in top ? top.isbn : [null];
  return {
    query_type: 'search',
    query,
    title: top.title ?? null,
    authors: 'author_name' in top ? top.author_name : [],
    publish_date: top.first_publish_year ?? null,
    publisher: 'publisher' in top ? top.publisher : [],
    isbn: Array.isArray(isbns) ? (isbns[0] ?? null) : null,
  };
}

const metadataKeys = new Set(['isbn', 'title', 'authors', 'publisher', 'publish_date', 'pages']);

/** The reference's output wrapper: book fields move, in order, under a trailing "metadata" object. */
export function sanitizeOutput(answer: BookAnswer): BookAnswer {
  const safe: BookAnswer = {};
  const metadata: BookAnswer = {};
  for (const [key, value] of Object.entries(answer)) {
    if (metadataKeys.has(key)) metadata[key] = value;
    else safe[key] = value;
  }
  if (Object.keys(metadata).length > 0) safe.metadata = metadata;
  return safe;
}
