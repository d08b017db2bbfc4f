// US state (and DC) abbreviations → names, in the reference's order (the reference project's servers/weather_mcp.py):
// the geocoder's `admin1` is matched against the names, and the first abbreviation whose name
// matches is the one shown.
const usStates: ReadonlyArray<readonly [string, string]> = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];

const byAbbreviation = new Map(usStates);

export function stateName(abbreviation: string): string | undefined {
  return byAbbreviation.get(abbreviation);
}

/** The abbreviation of a state given by its name (case-insensitive), if it is one. */
export function stateAbbreviation(name: string): string | undefined {
  const wanted = name.toLowerCase();
  return usStates.find(([, full]) => full.toLowerCase() === wanted)?.[0];
}

/**
 * "City, ST" / "City ST" / "City, State Name" / "City" → [city, abbreviation or undefined],
 * exactly as the reference parses it. Without a comma the last word is taken as the state, so
 * "San Francisco" becomes city "San" with no state (the reference then geocodes "San").
 */
export function parseCityState(text: string): [string, string | undefined] {
  const trimmed = text.trim();
  let city: string;
  let state: string;
  const comma = trimmed.indexOf(',');
  if (comma >= 0) {
    city = trimmed.slice(0, comma).trim();
    state = trimmed.slice(comma + 1).trim();
  } else {
    const match = /^(.*?)[\s,]+([A-Za-z]{2,})$/.exec(trimmed);
    if (!match) return [trimmed, undefined];
    city = (match[1] ?? '').trim();
    state = (match[2] ?? '').trim();
  }
  const upper = state.toUpperCase();
  if (byAbbreviation.has(upper)) return [city, upper];
  return [city, stateAbbreviation(state)];
}
