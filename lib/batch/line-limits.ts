/**
 * A text's lines against a count and a length, in one pass (linear, no regex): the bound of a
 * list is checked before any of it is parsed. Blank lines are not counted (a trailing newline,
 * spacing in a pasted list); `\r\n` and `\r` end a line as `\n` does.
 */
export function lineLimitIssue(text: string, opts: { maxLines: number; maxLineChars: number }): string | null {
  const n = (v: number) => v.toLocaleString("en-US");
  let lines = 0;
  let lineNo = 0;
  let start = 0;
  // The next of each line break at or after `start`, found once and kept until passed: asking
  // again for every line would scan the rest of a text without `\r` once a line.
  let lf = -2;
  let cr = -2;
  for (;;) {
    if (lf !== -1 && lf < start) lf = text.indexOf("\n", start);
    if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
    const end = Math.min(lf < 0 ? text.length : lf, cr < 0 ? text.length : cr);
    lineNo++;
    if (end - start > opts.maxLineChars) return `line ${n(lineNo)} is longer than ${n(opts.maxLineChars)} characters`;
    if (end > start && text.slice(start, end).trim() !== "" && ++lines > opts.maxLines) {
      return `has more than ${n(opts.maxLines)} lines (line ${n(lineNo)}); split it into smaller lists`;
    }
    if (end === text.length) return null;
    start = end + (text[end] === "\r" && text[end + 1] === "\n" ? 2 : 1);
  }
}
