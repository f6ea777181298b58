// The one escape for text put into SVG or HTML markup (attribute values in
// double or single quotes, and text nodes): the games' pictures and the
// server's few hand-built pages use it alike. Pure, so rules/ may import it.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeMarkup(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
