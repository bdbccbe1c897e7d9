/**
 * Whether text pasted into the palette or the search box could be a message id. Ids are
 * opaque, so the test is loose: one token of URL-safe characters, long enough not to be a
 * screen name being typed. Browser-safe, and free of UI imports so server code can use it.
 */
export function looksLikeMessageId(text: string): boolean {
  const t = text.trim();
  return t.length >= 8 && t.length <= 200 && /^[A-Za-z0-9._:-]+$/.test(t) && /\d/.test(t);
}
