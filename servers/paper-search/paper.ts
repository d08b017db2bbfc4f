// The reference's `Paper` dataclass (paper_search_mcp/paper.py) and its `to_dict()`: lists
// joined with "; ", datetimes as Python's isoformat(), `extra` as Python's str() of a dict, and
// the fixed key order every search tool answers with.
import { pythonRepr } from '../shared/python-format.js';

/** A naive Python `datetime`: isoformat() and str() as Python prints them. */
export class PyDateTime {
  constructor(
    readonly year: number,
    readonly month = 1,
    readonly day = 1,
    readonly hour = 0,
    readonly minute = 0,
    readonly second = 0,
    readonly microsecond = 0,
  ) {}

  /** `datetime.now()`: the server's local time. */
  static now(): PyDateTime {
    const now = new Date();
    return new PyDateTime(
      now.getFullYear(),
      now.getMonth() + 1,
      now.getDate(),
      now.getHours(),
      now.getMinutes(),
      now.getSeconds(),
      now.getMilliseconds() * 1000,
    );
  }

  /** `datetime.strptime(text, "%Y-%m-%d")` (also "%Y-%m-%dT%H:%M:%SZ"); undefined when it does not match. */
  static parse(text: string): PyDateTime | undefined {
    const match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T(\d{2}):(\d{2}):(\d{2})Z)?$/.exec(text.trim());
    if (!match) return undefined;
    const [year, month, day, hour, minute, second] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
    const date = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1));
    if (date.getUTCMonth() + 1 !== month || date.getUTCDate() !== day) return undefined;
    return new PyDateTime(year ?? 0, month, day, hour, minute, second);
  }

  private pad(value: number, width = 2): string {
    return String(value).padStart(width, '0');
  }

  private format(separator: string): string {
    const base = `${this.pad(this.year, 4)}-${this.pad(this.month)}-${this.pad(this.day)}${separator}${this.pad(this.hour)}:${this.pad(this.minute)}:${this.pad(this.second)}`;
    return this.microsecond ? `${base}.${this.pad(this.microsecond, 6)}` : base;
  }

  isoformat(): string {
    return this.format('T');
  }

  /** `str(datetime)`, as an f-string prints it. */
  toString(): string {
    return this.format(' ');
  }
}

export interface Paper {
  paper_id: string;
  title: unknown;
  authors: unknown[];
  abstract: unknown;
  doi: unknown;
  published_date: PyDateTime | undefined;
  pdf_url: string;
  url: unknown;
  source: string;
  updated_date?: PyDateTime | undefined;
  categories?: unknown[];
  keywords?: unknown[];
  citations?: unknown;
  references?: unknown[];
  extra?: Record<string, unknown>;
}

function joined(values: unknown[] | undefined): string {
  return values && values.length > 0 ? values.map((value) => String(value)).join('; ') : '';
}

/** `Paper.to_dict()`. */
export function toPaperDict(paper: Paper): Record<string, unknown> {
  const extra = paper.extra && Object.keys(paper.extra).length > 0 ? pythonRepr(paper.extra) : '';
  return {
    paper_id: paper.paper_id,
    title: paper.title,
    authors: joined(paper.authors),
    abstract: paper.abstract,
    doi: paper.doi,
    published_date: paper.published_date ? paper.published_date.isoformat() : '',
    pdf_url: paper.pdf_url,
    url: paper.url,
    source: paper.source,
    updated_date: paper.updated_date ? paper.updated_date.isoformat() : '',
    categories: joined(paper.categories),
    keywords: joined(paper.keywords),
    citations: paper.citations ?? 0,
    references: joined(paper.references),
    extra,
  };
}
