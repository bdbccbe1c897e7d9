/**
 * The search box's text split into tokens, in one pass over the characters (never a
 * backtracking regex): whitespace separates tokens, a leading `-` negates one, `"…"` quotes a
 * phrase (after a `key:` too), and `key:` before a value makes a field term. The caller bounds
 * the text before calling (SEARCH_QUERY_LIMITS); the tokenizer also stops after `maxTokens`, so
 * a count past the limit costs no more than the limit.
 */
export type Token = {
  /** As typed, for explaining it back. */
  raw: string;
  negated: boolean;
  /** Lower-cased field name before the colon; null for a free word or phrase. */
  key: string | null;
  value: string;
  quoted: boolean;
};

export type Tokenized = { tokens: Token[]; more: boolean; steps: number; unclosedQuote: boolean };

const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v" || c === "\u00a0" || c === "\u3000";
const isKeyChar = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
/** Typographic quotes count as quotes: a phrase pasted from a document keeps working. */
const isQuote = (c: string) => c === '"' || c === "\u201c" || c === "\u201d";

export function tokenize(text: string, maxTokens: number): Tokenized {
  const tokens: Token[] = [];
  let i = 0;
  let steps = 0;
  let unclosedQuote = false;
  const n = text.length;
  while (i < n) {
    steps++;
    if (isSpace(text[i]!)) {
      i++;
      continue;
    }
    if (tokens.length >= maxTokens) return { tokens, more: true, steps, unclosedQuote };
    const start = i;
    let negated = false;
    if (text[i] === "-" && i + 1 < n && !isSpace(text[i + 1]!)) {
      negated = true;
      i++;
    }
    // A key: letters up to a colon. Anything else before a colon (a time, a URL's digits) is a word.
    let key: string | null = null;
    let k = i;
    while (k < n && isKeyChar(text[k]!)) {
      k++;
      steps++;
    }
    if (k > i && k < n && text[k] === ":") {
      key = text.slice(i, k).toLowerCase();
      i = k + 1;
    }
    let value: string;
    let quoted = false;
    if (i < n && isQuote(text[i]!)) {
      quoted = true;
      const open = i + 1;
      let close = open;
      while (close < n && !isQuote(text[close]!)) {
        close++;
        steps++;
      }
      if (close >= n) unclosedQuote = true;
      value = text.slice(open, close);
      i = Math.min(n, close + 1);
    } else {
      const open = i;
      while (i < n && !isSpace(text[i]!)) {
        i++;
        steps++;
      }
      value = text.slice(open, i);
    }
    tokens.push({ raw: text.slice(start, i), negated, key, value: value.trim(), quoted });
  }
  return { tokens, more: false, steps, unclosedQuote };
}
