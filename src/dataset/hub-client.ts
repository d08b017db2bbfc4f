// The few calls of the Hugging Face Hub's HTTP API the dataset pull needs. The shapes are the
// documented ones, as the official client `huggingface_hub` uses them:
//   - revision:  GET {endpoint}/api/datasets/{repo}/revision/{revision} → { sha, ... }
//                (HfApi.dataset_info)
//   - listing:   GET {endpoint}/api/datasets/{repo}/tree/{revision}?recursive=true → an array of
//                { type: "file" | "directory", path, size, oid, lfs?: { oid, size, pointerSize } };
//                `oid` is the git blob id, `lfs.oid` the sha256 of an LFS file's content; further
//                pages come in a GitHub-style `Link: <url>; rel="next"` header
//                (HfApi.list_repo_tree, utils/_pagination.py)
//   - bytes:     GET {endpoint}/datasets/{repo}/resolve/{revision}/{path} (hf_hub_url); LFS files
//                redirect to a CDN; `X-Linked-Etag` (else `ETag`) is the sha256 for LFS files and
//                the git blob id otherwise, `X-Linked-Size` the content size, `X-Repo-Commit` the
//                commit (get_hf_file_metadata)
// The token goes only to the endpoint's own origin; a redirect elsewhere gets no credentials.
// A listing is bounded (listingLimits: pages, entries, bytes per page), so a hub that answers
// `rel="next"` forever or sends an endless page gets a clear error, not a growing list.
import { z } from 'zod';
import { networkReason } from '../assets/http-download.js';
import { formatIssues } from '../config/zod-issues.js';
import { DatasetError, unreachableError } from './dataset-error.js';

export interface HubOptions {
  /** e.g. https://huggingface.co (HF_ENDPOINT). */
  endpoint: string;
  /** HF_TOKEN; sent as `Authorization: Bearer` to the endpoint's origin only. */
  token?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Bounds on the tree listing (default listingLimits). */
  limits?: ListingLimits;
}

export interface ListingLimits {
  pages: number;
  entries: number;
  /** Bytes of one JSON answer (a listing page or the revision info). */
  pageBytes: number;
}

/** The published dataset lists a few hundred files on one or two pages; these leave room for far larger mirrors. */
const listingLimits: ListingLimits = { pages: 1000, entries: 200_000, pageBytes: 64 * 1024 * 1024 };

/** One file of a dataset revision, with what the listing says its content is. */
export interface HubFile {
  path: string;
  size: number | undefined;
  /** Content sha256 (LFS files). */
  sha256: string | undefined;
  /** Git blob id (files kept in git, not LFS). */
  gitBlob: string | undefined;
  lfs: boolean;
}

const sha256Pattern = /^[0-9a-f]{64}$/;
const gitBlobPattern = /^[0-9a-f]{40}$/;

const treeEntrySchema = z
  .object({
    type: z.string(),
    path: z.string().min(1),
    size: z.number().int().nonnegative().optional(),
    oid: z.string().optional(),
    lfs: z.object({ oid: z.string(), size: z.number().int().nonnegative() }).loose().nullish(),
  })
  .loose();

const revisionSchema = z.object({ sha: z.string().optional() }).loose();

function toHubFile(entry: z.output<typeof treeEntrySchema>): HubFile {
  const lfsSha = entry.lfs?.oid.toLowerCase();
  const oid = entry.oid?.toLowerCase();
  return {
    path: entry.path,
    size: entry.lfs?.size ?? entry.size,
    sha256: lfsSha && sha256Pattern.test(lfsSha) ? lfsSha : undefined,
    // For an LFS file `oid` names the pointer, not the content, so it cannot check the bytes.
    gitBlob: !entry.lfs && oid && gitBlobPattern.test(oid) ? oid : undefined,
    lfs: Boolean(entry.lfs),
  };
}

/**
 * The `rel="next"` target of a Link header, resolved against the page it came with.
 * @internal Exported for its tests.
 */
export function nextPageUrl(link: string | null, base: string): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const match = /<([^>]+)>\s*;(?:[^,]*;)?\s*rel="?next"?/i.exec(part.trim());
    if (match?.[1]) return new URL(match[1], base).href;
  }
  return undefined;
}

/** What the first response of a file download says about its content (linked etag and size). */
export function expectedFromHubHeaders(headers: Headers): { sha256?: string; gitBlob?: string; bytes?: number } {
  const etag = (headers.get('x-linked-etag') ?? headers.get('etag') ?? '').replace(/^W\//, '').replace(/"/g, '').toLowerCase();
  const size = Number(headers.get('x-linked-size') ?? Number.NaN);
  return {
    ...(sha256Pattern.test(etag) ? { sha256: etag } : gitBlobPattern.test(etag) ? { gitBlob: etag } : {}),
    ...(Number.isInteger(size) && size >= 0 ? { bytes: size } : {}),
  };
}

function listingTooLong(repo: string, what: string, url: string): DatasetError {
  return new DatasetError(
    'http',
    `listing of ${repo}: the hub answered ${what} (last page ${url}); the published dataset has a few hundred files, so this hub or mirror is not serving that dataset as expected`,
  );
}

/** The body as text, refused past `maxBytes` (announced or received) instead of held in memory. */
async function boundedText(response: Response, maxBytes: number, what: string): Promise<string> {
  const tooLarge = () => new DatasetError('http', `${what} answered more than ${maxBytes} bytes; refused`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createHubClient(options: HubOptions) {
  const endpoint = new URL(options.endpoint.replace(/\/+$/, ''));
  const base = endpoint.href.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const limits = options.limits ?? listingLimits;
  const encodeRevision = (revision: string) => encodeURIComponent(revision);
  const encodePath = (file: string) => file.split('/').map(encodeURIComponent).join('/');

  function headersFor(url: URL): Record<string, string> {
    return options.token && url.origin === endpoint.origin ? { authorization: `Bearer ${options.token}` } : {};
  }

  async function getJson(url: string, what: string): Promise<{ json: unknown; headers: Headers }> {
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: { accept: 'application/json', ...headersFor(new URL(url)) },
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
    } catch (error) {
      throw unreachableError(new URL(url).host, networkReason(error), error);
    }
    if (!response.ok) {
      await response.body?.cancel();
      const access = response.status === 401 || response.status === 403 ? ' (a gated or private dataset needs HF_TOKEN with access to it)' : '';
      throw new DatasetError('http', `${what}: ${url} answered HTTP ${response.status} ${response.statusText}${access}`.trim());
    }
    const text = await boundedText(response, limits.pageBytes, `${what}: ${url}`);
    try {
      return { json: JSON.parse(text), headers: response.headers };
    } catch (error) {
      throw new DatasetError('http', `${what}: ${url} did not answer JSON (${(error as Error).message})`, { cause: error });
    }
  }

  return {
    endpoint: base,
    headersFor,

    /** The commit a branch or tag points at, so every file comes from one commit. */
    async revisionSha(repo: string, revision: string): Promise<string | undefined> {
      const url = `${base}/api/datasets/${repo}/revision/${encodeRevision(revision)}`;
      const parsed = revisionSchema.safeParse((await getJson(url, `dataset ${repo} at revision "${revision}"`)).json);
      return parsed.success && parsed.data.sha && gitBlobPattern.test(parsed.data.sha) ? parsed.data.sha : undefined;
    },

    /** Every file of the revision, following the listing's pages. */
    async listFiles(repo: string, revision: string): Promise<HubFile[]> {
      const files: HubFile[] = [];
      const seen = new Set<string>();
      let url: string | undefined = `${base}/api/datasets/${repo}/tree/${encodeRevision(revision)}?recursive=true`;
      let entries = 0;
      while (url && !seen.has(url)) {
        if (seen.size >= limits.pages) throw listingTooLong(repo, `more than ${limits.pages} pages`, url);
        seen.add(url);
        const page = await getJson(url, `listing of ${repo}`);
        const parsed = z.array(treeEntrySchema).safeParse(page.json);
        if (!parsed.success) throw new DatasetError('http', formatIssues(`listing of ${repo} (${url})`, parsed.error.issues));
        entries += parsed.data.length;
        if (entries > limits.entries) throw listingTooLong(repo, `more than ${limits.entries} entries`, url);
        files.push(...parsed.data.filter((entry) => entry.type === 'file').map(toHubFile));
        url = nextPageUrl(page.headers.get('link'), url);
      }
      return files;
    },

    fileUrl(repo: string, revision: string, file: string): string {
      return `${base}/datasets/${repo}/resolve/${encodeRevision(revision)}/${encodePath(file)}`;
    },
  };
}

export type HubClient = ReturnType<typeof createHubClient>;
