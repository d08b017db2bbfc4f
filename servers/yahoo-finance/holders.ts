// Holder tables as yfinance 0.2.66 builds them (yfinance/scrapers/holders.py) from one
// quoteSummary call with seven modules: {raw} values unwrapped, maxAge dropped, epoch-second
// dates made datetimes, columns renamed; written as the reference wrote each (major holders as
// metric/Value rows, institutional holders with epoch-millisecond dates, the rest ISO).
import { isJsonNumber } from '../shared/python-format.js';
import { DateCell, recordsJson, type FrameRow } from './frame-json.js';
import { yahooUrl, type YahooClient } from './yahoo-client.js';

type Json = unknown;
const asObject = (value: Json): Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>) : {};

export const holderTypes = [
  'major_holders',
  'institutional_holders',
  'mutualfund_holders',
  'insider_transactions',
  'insider_purchases',
  'insider_roster_holders',
] as const;
export type HolderType = (typeof holderTypes)[number];

const modules = [
  'institutionOwnership',
  'fundOwnership',
  'majorDirectHolders',
  'majorHoldersBreakdown',
  'insiderTransactions',
  'insiderHolders',
  'netSharePurchaseActivity',
];

const ownershipNames = { reportDate: 'Date Reported', organization: 'Holder', position: 'Shares', value: 'Value' };
const transactionNames = {
  startDate: 'Start Date',
  filerName: 'Insider',
  filerRelation: 'Position',
  filerUrl: 'URL',
  moneyText: 'Transaction',
  transactionText: 'Text',
  shares: 'Shares',
  value: 'Value',
  ownership: 'Ownership',
};
const rosterNames = {
  name: 'Name',
  relation: 'Position',
  url: 'URL',
  transactionDescription: 'Most Recent Transaction',
  latestTransDate: 'Latest Transaction Date',
  positionDirectDate: 'Position Direct Date',
  positionDirect: 'Shares Owned Directly',
  positionIndirectDate: 'Position Indirect Date',
  positionIndirect: 'Shares Owned Indirectly',
};

const unwrap = (value: Json): Json =>
  value !== null && typeof value === 'object' && !isJsonNumber(value) && 'raw' in (value as object) ? (value as { raw: Json }).raw : value;
const toDate = (value: Json): Json => (isJsonNumber(value) ? new DateCell(Number(value.value) * 1000) : value);

function table(list: Json, names: Record<string, string>, dateFields: readonly string[]): FrameRow[] {
  return (Array.isArray(list) ? list : []).map((entry) => {
    const row: FrameRow = {};
    for (const [key, value] of Object.entries(asObject(entry))) {
      if (key === 'maxAge') continue;
      const plain = unwrap(value);
      row[names[key] ?? key] = dateFields.includes(key) ? toDate(plain) : plain;
    }
    return row;
  });
}

function purchases(data: Record<string, Json>): string {
  const labels = [
    'Purchases',
    'Sales',
    'Net Shares Purchased (Sold)',
    'Total Insider Shares Held',
    '% Net Shares Purchased (Sold)',
    '% Buy Shares',
    '% Sell Shares',
  ];
  const shares = [
    'buyInfoShares',
    'sellInfoShares',
    'netInfoShares',
    'totalInsiderShares',
    'netPercentInsiderShares',
    'buyPercentInsiderShares',
    'sellPercentInsiderShares',
  ];
  const trans = ['buyInfoCount', 'sellInfoCount', 'netInfoCount'];
  const first = `Insider Purchases Last ${typeof data.period === 'string' ? data.period : ''}`;
  const rows = labels.map((label, index) => ({
    [first]: label,
    Shares: unwrap(data[shares[index] ?? ''] ?? null),
    Trans: index < 3 ? unwrap(data[trans[index] ?? ''] ?? null) : null,
  }));
  return recordsJson(rows, [first, 'Shares', 'Trans']);
}

export async function holdersJson(client: YahooClient, symbol: string, type: HolderType): Promise<string> {
  const body = await client.json(yahooUrl('query2', `/v10/finance/quoteSummary/${encodeURIComponent(symbol)}`), {
    modules: modules.join(','),
    corsDomain: 'finance.yahoo.com',
    formatted: 'false',
  });
  const result = asObject(asObject(body).quoteSummary).result;
  if (!Array.isArray(result) || result.length === 0) throw new Error('Failed to parse holders json data.');
  const data = asObject(result[0]);
  switch (type) {
    case 'major_holders': {
      const breakdown = Object.entries(asObject(data.majorHoldersBreakdown)).filter(([key]) => key !== 'maxAge');
      return recordsJson(
        breakdown.map(([metric, value]) => ({ metric, Value: unwrap(value) })),
        ['metric', 'Value'],
      );
    }
    case 'institutional_holders':
      return recordsJson(table(asObject(data.institutionOwnership).ownershipList, ownershipNames, ['reportDate']), undefined, { isoDates: false });
    case 'mutualfund_holders':
      return recordsJson(table(asObject(data.fundOwnership).ownershipList, ownershipNames, ['reportDate']));
    case 'insider_transactions':
      return recordsJson(table(asObject(data.insiderTransactions).transactions, transactionNames, ['startDate']));
    case 'insider_purchases':
      return purchases(asObject(data.netSharePurchaseActivity));
    case 'insider_roster_holders':
      return recordsJson(table(asObject(data.insiderHolders).holders, rosterNames, ['positionDirectDate', 'latestTransDate']));
  }
}
