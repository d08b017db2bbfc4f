// The reference nationalparks server's formatters (mcp-server-nationalparks/src/formatters.ts):
// which fields of the NPS API records it kept, under which names, and how it reshaped them
// (hours as "Monday: 9:00AM - 5:00PM" lines, fees prefixed with "$", amenities as labels, alert
// categories spelled out). Missing arrays and objects read as empty instead of failing.
type Json = Record<string, unknown>;

const list = (value: unknown): Json[] => (Array.isArray(value) ? value : []);
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});

function primaryAddress(record: Json) {
  const addresses = list(record.addresses);
  const address = addresses.find((entry) => entry.type === 'Physical') ?? addresses[0];
  return address ? { line1: address.line1, line2: address.line2, city: address.city, stateCode: address.stateCode, postalCode: address.postalCode } : undefined;
}

function formatHours(record: Json) {
  return list(record.operatingHours).map((hours) => ({
    name: hours.name,
    description: hours.description,
    standardHours: Object.entries(obj(hours.standardHours)).map(([day, value]) => `${day.charAt(0).toUpperCase()}${day.slice(1)}: ${value || 'Closed'}`),
  }));
}

function formatContacts(record: Json) {
  const contacts = obj(record.contacts);
  return {
    phoneNumbers: list(contacts.phoneNumbers).map((phone) => ({
      type: phone.type,
      number: phone.phoneNumber,
      extension: phone.extension,
      description: phone.description,
    })),
    emailAddresses: list(contacts.emailAddresses).map((email) => ({ address: email.emailAddress, description: email.description })),
  };
}

const images = (record: Json) =>
  list(record.images).map((image) => ({ url: image.url, title: image.title, altText: image.altText, caption: image.caption, credit: image.credit }));
const states = (record: Json) =>
  String(record.states ?? '')
    .split(',')
    .map((code) => code.trim());
const names = (value: unknown) => list(value).map((entry) => entry.name);
const dollars = (fees: unknown) => list(fees).map((fee) => ({ title: fee.title, cost: `$${fee.cost}`, description: fee.description }));

export function formatParks(parks: Json[]) {
  return parks.map((park) => {
    const contacts = formatContacts(park);
    return {
      name: park.fullName,
      code: park.parkCode,
      description: park.description,
      states: states(park),
      url: park.url,
      designation: park.designation,
      activities: names(park.activities),
      weatherInfo: park.weatherInfo,
      location: { latitude: park.latitude, longitude: park.longitude },
      entranceFees: list(park.entranceFees).map((fee) => ({ cost: fee.cost, description: fee.description, title: fee.title })),
      operatingHours: list(park.operatingHours).map((hours) => ({ name: hours.name, description: hours.description, standardHours: hours.standardHours })),
      // findParks listed phone numbers without the extension.
      contacts: {
        phoneNumbers: contacts.phoneNumbers.map(({ type, number, description }) => ({ type, number, description })),
        emailAddresses: contacts.emailAddresses,
      },
      images: images(park),
    };
  });
}

export function formatParkDetails(park: Json) {
  return {
    name: park.fullName,
    code: park.parkCode,
    url: park.url,
    description: park.description,
    designation: park.designation,
    states: states(park),
    weatherInfo: park.weatherInfo,
    directionsInfo: park.directionsInfo,
    directionsUrl: park.directionsUrl,
    location: { latitude: park.latitude, longitude: park.longitude, address: primaryAddress(park) },
    contacts: formatContacts(park),
    entranceFees: dollars(park.entranceFees),
    entrancePasses: dollars(park.entrancePasses),
    operatingHours: formatHours(park),
    topics: names(park.topics),
    activities: names(park.activities),
    images: images(park),
  };
}

const alertTypes: Record<string, string> = {
  Information: 'Information (non-emergency)',
  Caution: 'Caution (potential hazard)',
  Danger: 'Danger (significant hazard)',
  'Park Closure': 'Park Closure (area inaccessible)',
};

export function formatAlerts(alerts: Json[]) {
  return alerts.map((alert) => ({
    title: alert.title,
    description: alert.description,
    parkCode: alert.parkCode,
    type: alertTypes[alert.category as string] ?? alert.category,
    url: alert.url,
    // As the reference: the date part in the server's locale (en-US), "Unknown" when absent.
    lastUpdated: alert.lastIndexedDate ? new Date(String(alert.lastIndexedDate)).toLocaleDateString('en-US') : 'Unknown',
  }));
}

export function formatVisitorCenters(centers: Json[]) {
  return centers.map((center) => ({
    name: center.name,
    parkCode: center.parkCode,
    description: center.description,
    url: center.url,
    directionsInfo: center.directionsInfo,
    directionsUrl: center.directionsUrl,
    location: { latitude: center.latitude, longitude: center.longitude, address: primaryAddress(center) },
    operatingHours: formatHours(center),
    contacts: formatContacts(center),
  }));
}

const amenityFlags: Array<[string, string]> = [
  ['trashRecyclingCollection', 'Trash/Recycling Collection'],
  ['toilets', 'Toilets'],
  ['internetConnectivity', 'Internet Connectivity'],
  ['showers', 'Showers'],
  ['cellPhoneReception', 'Cell Phone Reception'],
  ['laundry', 'Laundry'],
  ['amphitheater', 'Amphitheater'],
  ['dumpStation', 'Dump Station'],
  ['campStore', 'Camp Store'],
  ['staffOrVolunteerHostOnsite', 'Staff/Volunteer Host Onsite'],
  ['potableWater', 'Potable Water'],
  ['iceAvailableForSale', 'Ice Available For Sale'],
  ['firewoodForSale', 'Firewood For Sale'],
  ['foodStorageLockers', 'Food Storage Lockers'],
];

/** Truthy flags become labels; list-valued ones (toilets, showers, potable water) carry their values. */
function amenities(campground: Json): string[] {
  const source = obj(campground.amenities);
  const labels: string[] = [];
  for (const [field, label] of amenityFlags) {
    const value = source[field];
    if (Array.isArray(value)) {
      if (value.length > 0) labels.push(`${label} (${value.join(', ')})`);
    } else if (value) labels.push(label);
  }
  return labels;
}

export function formatCampgrounds(campgrounds: Json[]) {
  return campgrounds.map((campground) => {
    const sites = obj(campground.campsites);
    const access = obj(campground.accessibility);
    return {
      name: campground.name,
      parkCode: campground.parkCode,
      description: campground.description,
      url: campground.url,
      reservationInfo: campground.reservationInfo,
      reservationUrl: campground.reservationUrl,
      regulations: campground.regulationsOverview,
      regulationsUrl: campground.regulationsurl,
      weatherOverview: campground.weatherOverview,
      location: { latitude: campground.latitude, longitude: campground.longitude, address: primaryAddress(campground) },
      operatingHours: formatHours(campground),
      fees: dollars(campground.fees),
      totalSites: sites.totalSites || '0',
      sitesReservable: campground.numberOfSitesReservable || '0',
      sitesFirstComeFirstServe: campground.numberOfSitesFirstComeFirstServe || '0',
      campsiteTypes: Object.fromEntries(
        ['group', 'horse', 'tentOnly', 'electricalHookups', 'rvOnly', 'walkBoatTo', 'other'].map((kind) => [kind, sites[kind] || '0']),
      ),
      amenities: amenities(campground),
      accessibility: {
        wheelchairAccess: access.wheelchairAccess,
        rvAllowed: access.rvAllowed,
        rvMaxLength: access.rvMaxLength,
        trailerAllowed: access.trailerAllowed,
        trailerMaxLength: access.trailerMaxLength,
        accessRoads: access.accessRoads,
        adaInfo: access.adaInfo,
      },
      contacts: formatContacts(campground),
    };
  });
}

function eventTimes(event: Json): string {
  return list(event.times)
    .map((time) => {
      let text = '';
      if (time.timeStart) text += time.sunriseTimeStart ? 'Sunrise' : time.timeStart;
      if (time.timeEnd) text += ` to ${time.sunsetTimeEnd ? 'Sunset' : time.timeEnd}`;
      return text || 'All day';
    })
    .join(', ');
}

export function formatEvents(events: Json[]) {
  return events.map((event) => ({
    title: event.title,
    parkCode: event.parkCode,
    parkName: event.parkFullName,
    description: event.description,
    category: event.category,
    subcategory: event.subcategory,
    tags: event.tags,
    location: event.location,
    coordinates: { latitude: event.latitude, longitude: event.longitude },
    dateTime: {
      dates: Array.isArray(event.dates) ? event.dates.join(', ') : '',
      times: eventTimes(event),
      dateStart: event.dateStart,
      dateEnd: event.dateEnd,
      isAllDay: event.isAllDay,
      isRecurring: event.isRecurring,
      recurrenceDateStart: event.recurrenceDateStart,
      recurrenceDateEnd: event.recurrenceDateEnd,
    },
    feeInfo: event.feeInfo,
    contactInfo: { email: event.contactEmailAddress, phone: event.contactTelephoneNumber },
    infoUrl: event.infoURL || event.url,
    lastUpdated: event.lastUpdated,
  }));
}
