// Who owns a demo session. The session id is not a credential: it is the task id of every call
// the session makes, so it appears in tool paths (`./media/uploads/<id>/...`) and in the JSON-RPC
// traffic. Ownership is a separate, unguessable visitor token (256 random bits) the server hands
// to the browser as an HttpOnly, SameSite=Strict cookie when it creates the browser's first
// session; every session route then answers only a request carrying the token of the visitor
// that created the session (anything else is the same 404 as an unknown session, so an id
// proves nothing). A cookie, not a header: the page's EventSource and <img> requests cannot
// send headers but do send same-origin cookies. The page's script never sees the token.
// A well-formed token the browser already holds is taken as its identity (a second demo on
// another port of the same host shares the cookie, which browsers do not scope by port); only
// its sha256 is kept in memory.
import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';

const cookieName = 'm3demo_visitor';
const tokenPattern = /^[A-Za-z0-9_-]{32,128}$/;

/** The visitor token the request carries, when it carries a well-formed one. */
function tokenOf(request: http.IncomingMessage): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    const token = value.join('=');
    if (name === cookieName && tokenPattern.test(token)) return token;
  }
  return undefined;
}

/** How a session stores its owner: never the token itself. */
function ownerKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The request's visitor (owner key), or undefined when it carries no token. */
export function visitorOf(request: http.IncomingMessage): string | undefined {
  const token = tokenOf(request);
  return token ? ownerKey(token) : undefined;
}

/**
 * The request's visitor, minting one (and setting its cookie on the response) when the request
 * has none: the first session a browser creates makes it a visitor.
 */
export function visitorOrNew(request: http.IncomingMessage, response: http.ServerResponse): string {
  const known = visitorOf(request);
  if (known) return known;
  const token = randomBytes(32).toString('base64url');
  response.setHeader('set-cookie', `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`);
  return ownerKey(token);
}
