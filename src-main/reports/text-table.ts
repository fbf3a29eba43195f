// Plain-text tables for the terminal: first column left-aligned, the others right-aligned.

/** Rows padded into aligned columns, two spaces apart. */
export function textTable(rows: string[][], indent = ''): string {
  if (rows.length === 0) return '';
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) => indent + r.map((c, i) => (i === 0 ? (c ?? '').padEnd(widths[i]) : (c ?? '').padStart(widths[i]))).join('  ').trimEnd())
    .join('\n');
}
