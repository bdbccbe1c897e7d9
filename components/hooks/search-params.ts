export type ParamPatch = Record<string, string | string[] | number | boolean | null | undefined>;

/**
 * The next query string after changing some parameters. Empty values are removed, so a
 * cleared filter leaves a clean URL. Changing any filter drops the page cursor: page 3 of an
 * old search is not page 3 of the new one.
 */
export function mergeSearchParams(current: URLSearchParams | string, patch: ParamPatch, options: { keepCursor?: boolean } = {}): string {
  const next = new URLSearchParams(typeof current === "string" ? current : current.toString());
  for (const [key, value] of Object.entries(patch)) {
    next.delete(key);
    if (value === null || value === undefined || value === "" || value === false) continue;
    if (Array.isArray(value)) value.filter(Boolean).forEach((v) => next.append(key, v));
    else next.set(key, String(value));
  }
  if (!options.keepCursor && !("cursor" in patch)) next.delete("cursor");
  next.sort();
  return next.toString();
}
