// health_topics: ODPHP MyHealthfinder API v4 `topicsearch.json` (keyword, lang), laid out as the
// reference's health-topics-tool.js. The reference reads `Sections.Section`, but the API spells
// it `Sections.section`; so `section`, `description` and `content` come out empty, exactly as
// the reference showed them to the model.
import { z } from 'zod';
import { asList, asRecord, orElse } from '../shared/loose-record.js';
import { failure, type Payload, success } from './reference-shape.js';
import { baseUrl, http } from './upstreams.js';

// The topics are read leniently below (a missing field is empty, as in the reference); only a body
// that is not a JSON object or array is a broken answer.
const responseSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);

export const topicLanguages = ['en', 'es'] as const;

function toTopic(raw: unknown): Payload {
  const topic = asRecord(raw);
  const sections = asRecord(topic.Sections).Section;
  const first = asRecord(asList(sections)[0]);
  const content: string[] = [];
  for (const section of asList(sections)) {
    const text = asRecord(section).Content;
    if (typeof text !== 'string') continue;
    let clean = text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (clean.length > 500) clean = `${clean.substring(0, 497)}...`;
    if (clean) content.push(clean);
  }
  return {
    title: orElse(topic.Title),
    url: orElse(topic.AccessibleVersion, orElse(topic.LastUpdate)),
    last_updated: orElse(topic.LastUpdate),
    section: orElse(first.Title),
    description: orElse(first.Description),
    content,
  };
}

export async function getHealthTopics(topic: string, language: string): Promise<Payload> {
  if (!topic) return failure('Topic is required');
  const response = await http.getJson(`${baseUrl('myHealthfinder')}/topicsearch.json`, {
    query: { keyword: topic, lang: language },
    schema: responseSchema,
    what: 'topic search',
  });
  const topics = asList(asRecord(asRecord(asRecord(response.body).Result).Resources).Resource).map(toTopic);
  return success({ search_term: topic, language, total_results: topics.length, health_topics: topics });
}
