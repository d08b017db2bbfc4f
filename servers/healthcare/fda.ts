// fda_drug_lookup: openFDA drug label (search_type "label" / "adverse_events") or NDC directory
// ("general"), one record (`limit=1`), reduced to the reference's key fields. The layout follows
// the reference's fda-tool.js exactly, including its quirks: per-record fields the label
// endpoint does not have come out as "", `labeler_name` then holds the `manufacturer` list, and
// "general" copies the first record's fields into every record.
import { z } from 'zod';
import { asList, asRecord, type LooseRecord, orElse } from '../shared/loose-record.js';
import { failure, type Payload, sanitizeText, success } from './reference-shape.js';
import { baseUrl, http, optionalKey } from './upstreams.js';

export const fdaSearchTypes = ['general', 'label', 'adverse_events'] as const;
type FdaSearchType = (typeof fdaSearchTypes)[number];

const recordSchema = z.record(z.string(), z.unknown());
const responseSchema = z
  .object({
    meta: z
      .object({ results: z.object({ total: z.number().optional() }).loose().optional() })
      .loose()
      .optional(),
    results: z.array(recordSchema).optional(),
  })
  .loose();

type FdaRecord = LooseRecord;

/** The reference's extractKeyInfo for one (the first) record. */
function extractKeyInfo(first: FdaRecord, searchType: FdaSearchType): Payload {
  const extracted: Payload = {};
  const openfda = first.openfda;
  if (searchType === 'general') {
    extracted.generic_name = orElse(first.generic_name);
    extracted.brand_name = orElse(first.brand_name);
    extracted.manufacturer = orElse(first.labeler_name);
    extracted.product_type = orElse(first.product_type);
    extracted.route = orElse(first.route, []);
    extracted.marketing_status = orElse(first.marketing_status);
    return extracted;
  }
  if (openfda) {
    const names = asRecord(openfda);
    extracted.brand_names = asList(names.brand_name).slice(0, 3);
    extracted.generic_names = asList(names.generic_name).slice(0, 3);
    if (searchType === 'label') extracted.manufacturer = asList(names.manufacturer_name).slice(0, 1);
  }
  if (searchType === 'adverse_events') {
    extracted.adverse_reactions = sanitizeText(first.adverse_reactions);
    extracted.warnings = sanitizeText(first.warnings_and_cautions);
    extracted.boxed_warning = sanitizeText(first.boxed_warning);
    return extracted;
  }
  extracted.indications = sanitizeText(first.indications_and_usage);
  extracted.dosage = sanitizeText(first.dosage_and_administration);
  extracted.warnings = sanitizeText(first.warnings_and_cautions);
  extracted.contraindications = sanitizeText(first.contraindications);
  extracted.adverse_reactions = sanitizeText(first.adverse_reactions);
  extracted.drug_interactions = sanitizeText(first.drug_interactions);
  extracted.pregnancy = sanitizeText(first.pregnancy);
  return extracted;
}

/** One entry of `drugs`: the record's own identity fields, then the extracted key info. */
function toDrug(record: FdaRecord, extracted: Payload): Payload {
  return {
    product_number: orElse(record.product_ndc, orElse(record.ndc_product_code)),
    generic_name: orElse(record.generic_name, orElse(extracted.generic_name)),
    brand_name: orElse(record.brand_name, orElse(extracted.brand_name)),
    labeler_name: orElse(record.labeler_name, orElse(extracted.manufacturer)),
    product_type: orElse(record.product_type, orElse(extracted.product_type)),
    ...extracted,
  };
}

/** Builds the reference's answer from an openFDA search result. */
function toFdaPayload(drugName: string, searchType: FdaSearchType, data: z.output<typeof responseSchema>): Payload {
  const results = data.results;
  const extracted = results ? extractKeyInfo(results[0] ?? {}, searchType) : {};
  const drugs = results ? results.map((record) => toDrug(record, extracted)) : [extracted];
  return success({ drug_name: drugName, search_type: searchType, drugs, total_results: orElse(data.meta?.results?.total, 0) });
}

export async function lookupDrug(drugName: string, searchType: FdaSearchType): Promise<Payload> {
  if (!drugName) return failure('Drug name is required');
  const onLabel = searchType !== 'general';
  const endpoint = `${baseUrl('openFda')}/drug/${onLabel ? 'label' : 'ndc'}.json`;
  const search = onLabel ? `openfda.generic_name:${drugName} OR openfda.brand_name:${drugName}` : `generic_name:${drugName} OR brand_name:${drugName}`;
  const response = await http.getJson(endpoint, {
    query: { search, limit: 1, api_key: optionalKey('FDA_API_KEY') },
    schema: responseSchema,
    what: 'drug search',
  });
  return toFdaPayload(drugName, searchType, response.body);
}
