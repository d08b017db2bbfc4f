// The FIPE table (Brazilian vehicle prices) through its v1 REST shape: /carros/marcas,
// /carros/marcas/{brand}/modelos, .../modelos/{model}/anos and .../anos/{year}. The default is the
// free parallelum.com.br mirror, which needs no key; FIPE_API_TOKEN (optional) is sent as a bearer
// token for a keyed host such as api.fipe.online, which the reference called with a token it
// hard-coded (not copied here). The table changes monthly, so validated answers are cached
// in-process for six hours (a broken answer is never cached); 429 and 5xx are retried by the
// shared client.
// Base URL: M3_UPSTREAM_FIPE_URL (default https://parallelum.com.br/fipe/api/v1).
import { z } from 'zod';
import { upstreamBaseUrl, type HttpClient } from '../shared/http-client.js';
import { UpstreamClientError } from '../shared/upstream-error.js';

const cacheTtlMs = 6 * 60 * 60 * 1000;

const code = z.union([z.string(), z.number()]).transform(String);
const brandsSchema = z.array(z.object({ nome: z.string(), codigo: code }).loose());
const modelsSchema = z.object({ modelos: z.array(z.object({ nome: z.string(), codigo: code }).loose()).default([]) }).loose();
const yearsSchema = z.array(z.object({ codigo: code }).loose());
const priceSchema = z.record(z.string(), z.unknown());

export type Brand = z.infer<typeof brandsSchema>[number];
export type Model = z.infer<typeof modelsSchema>['modelos'][number];

/** A 4xx FIPE answered (not an outage): callers word it as the reference did. */
export class FipeStatusError extends Error {
  constructor(readonly status: number) {
    super(`FIPE answered HTTP ${status}`);
  }
}

export class FipeClient {
  private readonly cache = new Map<string, { expires: number; value: unknown }>();

  constructor(
    private readonly http: HttpClient,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  private async get<S extends z.ZodType>(path: string, schema: S, what: string): Promise<z.output<S>> {
    const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_FIPE_URL', 'https://parallelum.com.br/fipe/api/v1', this.env)}${path}`);
    const cached = this.cache.get(url.href);
    if (cached && cached.expires > Date.now()) return cached.value as z.output<S>;
    const token = this.env.FIPE_API_TOKEN?.trim();
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    let value: z.output<S>;
    try {
      value = (await this.http.getJson(url.href, { headers, schema, what })).body;
    } catch (error) {
      if (error instanceof UpstreamClientError) throw new FipeStatusError(error.status);
      throw error;
    }
    this.cache.set(url.href, { expires: Date.now() + cacheTtlMs, value });
    return value;
  }

  brands(): Promise<Brand[]> {
    return this.get('/carros/marcas', brandsSchema, 'brands');
  }

  async models(brand: string): Promise<Model[]> {
    return (await this.get(`/carros/marcas/${encodeURIComponent(brand)}/modelos`, modelsSchema, 'models')).modelos;
  }

  years(brand: string, model: string): Promise<Array<{ codigo: string }>> {
    return this.get(`/carros/marcas/${encodeURIComponent(brand)}/modelos/${encodeURIComponent(model)}/anos`, yearsSchema, 'years');
  }

  price(brand: string, model: string, year: string): Promise<Record<string, unknown>> {
    return this.get(`/carros/marcas/${encodeURIComponent(brand)}/modelos/${encodeURIComponent(model)}/anos/${encodeURIComponent(year)}`, priceSchema, 'price');
  }
}
