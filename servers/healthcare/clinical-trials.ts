// clinical_trials_search: ClinicalTrials.gov API v2 `/studies` (query.cond, pageSize, optional
// filter.overallStatus), one page, laid out as the reference's clinical-trials-tool.js.
import { z } from 'zod';
import { asList, asRecord, orElse } from '../shared/loose-record.js';
import { failure, type Payload, success } from './reference-shape.js';
import { baseUrl, http } from './upstreams.js';

export const trialStatuses = ['recruiting', 'completed', 'active', 'not_recruiting', 'all'] as const;
type TrialStatus = (typeof trialStatuses)[number];

const statusFilter: Record<Exclude<TrialStatus, 'all'>, string> = {
  recruiting: 'RECRUITING',
  completed: 'COMPLETED',
  active: 'ACTIVE_NOT_RECRUITING',
  not_recruiting: 'ACTIVE_NOT_RECRUITING',
};

const responseSchema = z.object({ studies: z.array(z.unknown()).optional(), totalCount: z.number().optional() }).loose();

function toLocation(location: unknown): Payload {
  // The reference reads name/city/state/country from `facility`, but in API v2 `facility` is the
  // name string and the rest sit on the location itself: all four come out as "", as they did.
  const facility = asRecord(asRecord(location).facility);
  return { facility: orElse(facility.name), city: orElse(facility.city), state: orElse(facility.state), country: orElse(facility.country) };
}

function toTrial(study: unknown): Payload {
  const protocol = asRecord(asRecord(study).protocolSection);
  const identification = asRecord(protocol.identificationModule);
  const status = asRecord(protocol.statusModule);
  const design = asRecord(protocol.designModule);
  const eligibility = asRecord(protocol.eligibilityModule);
  const locations = asList(asRecord(protocol.contactsLocationsModule).locations).slice(0, 3);
  const nctId = orElse(identification.nctId);
  return {
    nct_id: nctId,
    title: orElse(identification.briefTitle),
    status: orElse(status.overallStatus),
    phase: orElse(design.phases, []),
    study_type: orElse(design.studyType),
    conditions: orElse(asRecord(protocol.conditionsModule).conditions, []),
    locations: locations.map(toLocation),
    sponsor: orElse(asRecord(asRecord(protocol.sponsorCollaboratorsModule).leadSponsor).name),
    url: nctId ? `https://clinicaltrials.gov/study/${String(nctId)}` : '',
    eligibility: {
      gender: orElse(eligibility.sex),
      min_age: orElse(eligibility.minimumAge),
      max_age: orElse(eligibility.maximumAge),
      healthy_volunteers: eligibility.healthyVolunteers ? 'Yes' : 'No',
    },
  };
}

export async function searchTrials(condition: string, status: TrialStatus, maxResults: number): Promise<Payload> {
  if (!condition) return failure('Condition is required');
  const response = await http.getJson(`${baseUrl('clinicalTrials')}/studies`, {
    query: { 'query.cond': condition, pageSize: maxResults, format: 'json', 'filter.overallStatus': status === 'all' ? undefined : statusFilter[status] },
    schema: responseSchema,
    what: 'study list',
  });
  const studies = response.body.studies;
  const trials = studies ? studies.map(toTrial) : [];
  const total = studies ? response.body.totalCount || studies.length : 0;
  return success({ condition, search_status: status, total_results: total, trials });
}
