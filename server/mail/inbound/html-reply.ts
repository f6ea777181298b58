// The text of a reply sent as HTML only, read without holding up the server.
//
// mailparser turns a whole HTML part into text synchronously: about half a second on the event
// loop for 200 kB (a reply quoting a long mail as HTML), during which nothing else is served.
// The desk parses with that turned off, and here only the reply's own part is converted: the
// HTML up to where the client's quote begins (Gmail's gmail_quote, a blockquote, Outlook's
// divRplyFwdMsg / appendonsend, Thunderbird's moz-cite-prefix, Yahoo's yahoo_quoted), without
// its head, styles and scripts, and at most MAX_HTML characters of it. The commands and table
// talk stand at the top of an HTML reply. The conversion is mailparser's own (a one-part
// message of that HTML, parsed again), so an HTML reply reads as it always did.

/** Characters of a reply's own HTML converted at most (a few ms). */
export const MAX_HTML = 16_384;

const QUOTE_STARTS = [
  'class="gmail_quote',
  "class='gmail_quote",
  'class=gmail_quote',
  '<blockquote',
  'id="divrplyfwdmsg"',
  'id="appendonsend"',
  'class="moz-cite-prefix"',
  'class="yahoo_quoted"',
];

/** `html` without its <head>, <style> and <script> elements (one pass; an unclosed one ends it). */
function withoutHiddenParts(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  for (;;) {
    let start = -1;
    let tag = '';
    for (const t of ['head', 'style', 'script']) {
      const i = lower.indexOf(`<${t}`, at);
      if (i >= 0 && (start < 0 || i < start) && !/[a-z0-9-]/.test(lower[i + t.length + 1] ?? '')) {
        start = i;
        tag = t;
      }
    }
    if (start < 0) return out + html.slice(at);
    out += html.slice(at, start);
    const end = lower.indexOf(`</${tag}`, start);
    if (end < 0) return out;
    const close = lower.indexOf('>', end);
    if (close < 0) return out;
    at = close + 1;
    if (out.length > MAX_HTML * 4) return out;
  }
}

/** The reply's own part of `html`, as HTML (see above). */
export function ownHtml(html: string): string {
  const body = withoutHiddenParts(html);
  const lower = body.toLowerCase();
  let end = body.length;
  for (const mark of QUOTE_STARTS) {
    const i = lower.indexOf(mark);
    if (i < 0) continue;
    // An attribute: the quote begins with the element that carries it.
    const element = mark.startsWith('<') ? i : lower.lastIndexOf('<', i);
    if (element >= 0 && element < end) end = element;
  }
  // A paragraph is read as a line, as a div is: Outlook writes every line typed as a paragraph
  // with no margin (an empty line is a paragraph of a no-break space), which would otherwise
  // read as lines with blank lines between, and end the commands after the first.
  return body.slice(0, Math.min(end, MAX_HTML)).replace(/<(\/?)p(?=[\s>/])/gi, '<$1div');
}

/** The text of the reply's own part of an HTML-only reply. */
export async function replyTextOfHtml(html: string): Promise<string> {
  const own = ownHtml(html);
  if (own.trim() === '') return '';
  const part = Buffer.from(`Content-Type: text/html; charset=utf-8\r\n\r\n${own}`, 'utf8');
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(part, { skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true });
  return typeof parsed.text === 'string' ? parsed.text : '';
}
