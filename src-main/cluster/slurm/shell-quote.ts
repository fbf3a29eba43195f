// Quoting for the generated job scripts: every value that reaches bash goes through here.

/** `text` as one bash word ('...' with embedded quotes escaped); plain words stay unquoted for readability. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
