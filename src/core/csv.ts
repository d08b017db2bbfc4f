// The one CSV writer: callers format each cell (numbers the way their file's reader expects) and
// this quotes and joins. A field holding a comma, a quote or a line break is quoted, quotes
// doubled (RFC 4180). The reference's Python csv.writer ends lines with \r\n, so files that must
// match it byte for byte pass that ending.

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of formatted cells as CSV text, every line (the last too) ended by `eol`. */
export function csvText(rows: ReadonlyArray<ReadonlyArray<string>>, eol: '\n' | '\r\n' = '\n'): string {
  return rows.map((row) => `${row.map(csvField).join(',')}${eol}`).join('');
}
