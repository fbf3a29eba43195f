// Escaping user text (run and case names, tags, notes, adapter names) for HTML text and attributes.

/** Text with & < > " ' replaced by entities, safe in element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
