import { SEARCH_QUERY_LIMITS } from "./limits";
import type { SearchField, SearchTerm } from "./terms";
import { tokenize } from "./tokenize";

/**
 * The other way: the screen's filter controls written into the query, and read back out of
 * it, so the box and the controls always say the same thing.
 */

/** What the controls show: the first positive term of each of their fields. */
export type SearchControls = { status?: string; direction?: string; tag?: string; after?: string; before?: string };

export function controlsOf(terms: SearchTerm[]): SearchControls {
  const controls: SearchControls = {};
  for (const t of terms) {
    if (t.negated) continue;
    if (t.field === "status" && !controls.status) controls.status = t.value;
    else if (t.field === "direction" && !controls.direction) controls.direction = t.value;
    else if (t.field === "tag" && !controls.tag) controls.tag = t.value === null ? t.name : `${t.name}:${t.value}`;
    else if ((t.field === "after" || t.field === "before") && !controls[t.field]) controls[t.field] = t.at;
  }
  return controls;
}

const KEY_OF_CONTROL: Record<keyof SearchControls, SearchField> = { status: "status", direction: "direction", tag: "tag", after: "after", before: "before" };

/** A value as one token: quoted when it holds a space or a quote would end it. */
export function quoteValue(value: string): string {
  return /[\s"]/.test(value) ? `"${value.replaceAll('"', "")}"` : value;
}

/** The term a control's value becomes (`tag` is `name` or `name:value` as the tag control takes it). */
export function termFor(control: keyof SearchControls, value: string): string {
  if (control === "tag") {
    const at = value.indexOf(":");
    return `tag:${quoteValue(at < 0 ? value : `${value.slice(0, at)}=${value.slice(at + 1)}`)}`;
  }
  return `${KEY_OF_CONTROL[control]}:${quoteValue(value)}`;
}

/**
 * The query with one control's positive terms replaced by its new value (or removed, for
 * null); everything else the user typed is kept as typed, in order.
 */
export function withControl(text: string, control: keyof SearchControls, value: string | null): string {
  const field = KEY_OF_CONTROL[control];
  const { tokens } = tokenize(text.slice(0, SEARCH_QUERY_LIMITS.maxLength), SEARCH_QUERY_LIMITS.maxTerms);
  // A positive term of the field goes, understood or not: the control now says what it is.
  const parts = tokens.filter((token) => token.negated || token.key !== field).map((t) => t.raw);
  if (value) parts.push(termFor(control, value));
  return parts.join(" ");
}
