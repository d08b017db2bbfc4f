// The caps every outbound HTTP client of m3bench applies, in one place: the web-API servers'
// shared client (servers/shared/http-client.ts), the asset pull and the dataset pull (both
// through src/assets/http-download.ts). A client may lower a cap for one request (an image
// tool reads at most its own size), never raise it past these.

export const HTTP_LIMITS = {
  /** Body cap of an API call that names none (JSON, HTML pages). */
  apiDefaultBodyBytes: 20 * 1024 * 1024,
  /** Largest body any API call may read (a full-size photo a tool returns). */
  apiBodyBytes: 64 * 1024 * 1024,
  /** Per-attempt time of an API call, unless M3_HTTP_TIMEOUT_MS says otherwise. */
  apiTimeoutMs: 20_000,
  /** Largest file a download (assets, dataset files) writes. */
  downloadBodyBytes: 8 * 1024 * 1024 * 1024,
  /** Time one download attempt may take, from the request to the last byte. */
  downloadTimeoutMs: 300_000,
  /** Redirect hops followed by any client; one more is an error. */
  maxRedirects: 5,
} as const;

/** The smaller of a caller's cap and the shared one (a caller never raises a cap). */
export function capOf(requested: number | undefined, limit: number): number {
  return requested === undefined || !Number.isFinite(requested) || requested <= 0 ? limit : Math.min(requested, limit);
}
