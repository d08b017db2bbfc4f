// lookup_icd_code: NLM Clinical Tables ICD-10-CM search (`sf=code,name`, `terms`, `maxList`),
// whose answer is an array `[total, codes, extra, [[code, name], ...]]`; laid out as the
// reference's medical-terminology-tool.js (the third column, `category`, is always "").
import { z } from 'zod';
import { asList, orElse } from '../shared/loose-record.js';
import { type Payload, success } from './reference-shape.js';
import { baseUrl, http } from './upstreams.js';

const responseSchema = z.array(z.unknown());

export async function lookupIcdCode(code: string, description: string, maxResults: number): Promise<Payload> {
  const terms = code || description;
  const response = await http.getJson(`${baseUrl('clinicalTables')}/icd10cm/v3/search`, {
    query: { sf: 'code,name', terms, maxList: maxResults },
    schema: responseSchema,
    what: 'ICD-10-CM search',
  });
  const rows = response.body[3];
  const codes = Array.isArray(rows)
    ? rows.map((row) => {
        const cells = asList(row);
        return { code: orElse(cells[0]), description: orElse(cells[1]), category: orElse(cells[2]) };
      })
    : [];
  return success({ search_type: code ? 'code' : 'description', search_term: terms, total_results: codes.length, codes });
}
