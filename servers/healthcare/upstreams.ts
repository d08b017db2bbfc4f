// The web APIs healthcare-mcp calls, each base URL overridable for tests and mirrors, and the one
// HTTP client they share. Optional keys (FDA_API_KEY, PUBMED_API_KEY, NCBI_API_KEY) are read from
// the server's own env at call time and only sent to their own upstream, as the reference does.
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';

export const http = createHttpClient({ server: 'healthcare-mcp' });

const upstreamEnv = {
  openFda: 'M3_UPSTREAM_OPENFDA_URL',
  eutils: 'M3_UPSTREAM_NCBI_EUTILS_URL',
  medrxiv: 'M3_UPSTREAM_MEDRXIV_API_URL',
  clinicalTrials: 'M3_UPSTREAM_CLINICALTRIALS_URL',
  clinicalTables: 'M3_UPSTREAM_CLINICALTABLES_URL',
  myHealthfinder: 'M3_UPSTREAM_MYHEALTHFINDER_URL',
} as const;

const defaults: Record<keyof typeof upstreamEnv, string> = {
  openFda: 'https://api.fda.gov',
  eutils: 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils',
  medrxiv: 'https://api.medrxiv.org',
  clinicalTrials: 'https://clinicaltrials.gov/api/v2',
  clinicalTables: 'https://clinicaltables.nlm.nih.gov/api',
  myHealthfinder: 'https://odphp.health.gov/myhealthfinder/api/v4',
};

export function baseUrl(name: keyof typeof upstreamEnv): string {
  return upstreamBaseUrl(upstreamEnv[name], defaults[name]);
}

/** An optional key from the server's env; undefined when unset or blank. */
export function optionalKey(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}
