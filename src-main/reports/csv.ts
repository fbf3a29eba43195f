// CSV cells and rows (RFC 4180 quoting); numbers keep full precision so they read back exactly.

/** One cell: null/undefined empty, numbers in shortest round-trip form, text quoted when needed. */
export function csvCell(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = String(v);
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row of cells joined by commas. */
export function csvRow(cells: (string | number | boolean | null | undefined)[]): string {
  return cells.map(csvCell).join(',');
}
