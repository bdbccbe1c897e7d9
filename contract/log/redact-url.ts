/**
 * A URL as the dashboard may show or log it: without the parts where a receiver's credential
 * sits. Webhook receivers take their secret in the userinfo (`user:pw@`), the query
 * (`?token=…`), the fragment, or a path segment (Slack's `/services/T…/B…/<token>`, Discord's
 * `/webhooks/<id>/<token>`). All four are masked; the scheme, host, port and the ordinary
 * path stay, so the reader can still tell which receiver it is. Used by the server for every
 * URL it answers or records and by the browser for anything it shows; no server-only import.
 */
export const MASK = "***";

/**
 * A path segment that looks like a token rather than a name: a run without separators of 16+
 * characters mixing letters and digits, or of 32+ of any. Names like `alerts`, `mail-hooks`,
 * `T0123ABCD`, `e2e-hook-1764391234567` or a UUID stay; Slack's and Discord's tokens do not.
 */
function looksLikeToken(segment: string): boolean {
  return segment.split(/[-_.~]/).some((run) => run.length >= 32 || (run.length >= 16 && /[0-9]/.test(run) && /[A-Za-z]/.test(run)));
}

/** The masked form of `raw`; text that is not an absolute URL becomes the mask alone. */
export function redactUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return MASK;
  }
  if (u.host === "") return `${u.protocol}${MASK}`; // mailto:, data:… carry no host to show
  const userinfo = u.username || u.password ? `${MASK}@` : "";
  const path = u.pathname
    .split("/")
    .map((s) => (looksLikeToken(decodeSafe(s)) ? MASK : s))
    .join("/");
  const names = [...new Set([...u.searchParams.keys()])].slice(0, 10);
  const query = u.search ? `?${names.length ? names.map((n) => `${encodeURIComponent(n).slice(0, 40)}=${MASK}`).join("&") : MASK}` : "";
  const fragment = u.hash ? `#${MASK}` : "";
  return `${u.protocol}//${userinfo}${u.host}${path}${query}${fragment}`;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Every absolute URL inside free text (an error message, a log line) masked. The pattern has
 * no nested or overlapping repetition: one pass, linear in the text.
 */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s"'<>`]+/gi;
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (m) => redactUrl(m));
}
