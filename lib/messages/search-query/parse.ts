import { SEARCH_QUERY_LIMITS } from "./limits";
import type { SearchProblem, SearchTerm } from "./terms";
import { tokenize, type Token } from "./tokenize";
import { directionOf, momentOf, statusOf, tagOf } from "./values";

export type ParsedSearch = {
  terms: SearchTerm[];
  problems: SearchProblem[];
  /** Characters and tokens visited: the parser's work, linear in the text (tests count it). */
  steps: number;
};

const STATUS_EXAMPLE = "status:bounced";
const KNOWN_KEYS = ["to", "from", "cc", "subject", "tag", "status", "direction", "id", "has", "before", "after"];

/**
 * A search box's text read into terms and problems. Pure and shared: the screen keeps its
 * controls in step with it, the server turns the terms into SQL (lib/server/messages/search.ts).
 * Never throws: what it cannot read becomes a problem, and the rest still searches. The caller
 * bounds the text first (the schema's `q`, SEARCH_QUERY_LIMITS); terms past the limit are
 * dropped here too, as one problem, so the parser alone is bounded as well.
 */
export function parseSearchQuery(text: string, now: Date = new Date()): ParsedSearch {
  const bounded = text.slice(0, SEARCH_QUERY_LIMITS.maxLength);
  const { tokens, more, steps, unclosedQuote } = tokenize(bounded, SEARCH_QUERY_LIMITS.maxTerms);
  const terms: SearchTerm[] = [];
  const problems: SearchProblem[] = [];
  for (const token of tokens) {
    const read = readToken(token, now);
    if ("why" in read) problems.push(read);
    else if (read.field !== "text" || read.value) terms.push(read);
  }
  if (unclosedQuote) problems.push({ term: '"', why: "a quote is not closed; the phrase runs to the end", example: '"order shipped"' });
  if (more) problems.push({ term: "…", why: `at most ${SEARCH_QUERY_LIMITS.maxTerms} terms are searched; the rest were left out`, example: "fewer, narrower terms" });
  return { terms, problems, steps: steps + tokens.length };
}

function readToken(t: Token, now: Date): SearchTerm | SearchProblem {
  const base = { negated: t.negated, raw: t.raw };
  const problem = (why: string, example: string): SearchProblem => ({ term: t.raw, why, example });
  if (t.key === null) return { ...base, field: "text", value: t.value, phrase: t.quoted };
  if (!KNOWN_KEYS.includes(t.key)) return problem(`${t.key}: is not a search term (known: ${KNOWN_KEYS.join(", ")})`, "to:ada@example.com");
  if (!t.value) return problem(`${t.key}: needs a value after the colon`, exampleFor(t.key));
  switch (t.key) {
    case "to":
    case "from":
    case "cc":
      return { ...base, field: t.key, value: t.value.toLowerCase() };
    case "subject":
      return { ...base, field: "subject", value: t.value };
    case "id":
      return { ...base, field: "id", value: t.value };
    case "tag": {
      const tag = tagOf(t.value);
      return tag ? { ...base, field: "tag", ...tag } : problem("a tag is letters, digits, - and _, as name or name=value", "tag:plan=pro");
    }
    case "status": {
      const status = statusOf(t.value);
      return status ? { ...base, field: "status", value: status } : problem(`"${t.value}" is not a status or an event word`, STATUS_EXAMPLE);
    }
    case "direction": {
      const direction = directionOf(t.value);
      return direction ? { ...base, field: "direction", value: direction } : problem("the direction is inbound or outbound", "direction:inbound");
    }
    case "has":
      return t.value.toLowerCase().replace(/s$/, "") === "attachment" ? { ...base, field: "has", value: "attachment" } : problem("only has:attachment is known", "has:attachment");
    case "before":
    case "after": {
      const at = momentOf(t.value, now);
      return at ? { ...base, field: t.key, at } : problem("not a date, a date-time or an age such as 7d", `${t.key}:2026-11-01 or ${t.key}:7d`);
    }
    default:
      return problem(`${t.key}: is not a search term`, "to:ada@example.com");
  }
}

function exampleFor(key: string): string {
  const examples: Record<string, string> = { tag: "tag:plan=pro", status: STATUS_EXAMPLE, direction: "direction:inbound", before: "before:2026-11-01", after: "after:7d", has: "has:attachment" };
  return examples[key] ?? `${key}:word`;
}
