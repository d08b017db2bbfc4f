// `m3 servers check --smoke` for healthcare-mcp: one ICD-10-CM lookup (the NLM Clinical Tables
// API, no key). Offline it runs against a fake answering in the documented Clinical Tables
// layout `[total, codes, extra, [[code, name]]]`.
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'lookup_icd_code',
  args: { code: 'G89.4', max_results: 1 },
  expectation: 'a success answer listing G89.4 (Chronic pain syndrome)',
  accept: (text) => {
    try {
      const answer = JSON.parse(text) as { status?: string; codes?: Array<{ code?: string }> };
      return answer.status === 'success' && (answer.codes ?? []).some((entry) => entry.code === 'G89.4');
    } catch {
      return false;
    }
  },
  offline: {
    env: { M3_UPSTREAM_CLINICALTABLES_URL: '/clinicaltables' },
    routes: [{ path: '/clinicaltables/icd10cm/v3/search', reply: { body: [1, ['G89.4'], null, [['G89.4', 'Chronic pain syndrome']]] } }],
  },
};
