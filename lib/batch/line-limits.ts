/**
 * A text's lines against a count and a length, in one pass of indexOf (linear, no regex): the
 * bound of a list is checked before any of it is parsed. Blank lines are not counted (a
 * trailing newline, spacing in a pasted list); `\r\n` and `\r` end a line as `\n` does.
 */
export function lineLimitIssue(text: string, opts: { maxLines: number; maxLineChars: number }): string | null {
  let lines = 0;
  let start = 0;
  let lineNo = 0;
  while (start <= text.length) {
    let end = text.length;
    const lf = text.indexOf("\n", start);
    const cr = text.indexOf("\r", start);
    if (lf >= 0) end = lf;
    if (cr >= 0 && cr < end) end = cr;
    lineNo++;
    const length = end - start;
    if (length > opts.maxLineChars) return `line ${lineNo.toLocaleString("en-US")} is longer than ${opts.maxLineChars.toLocaleString("en-US")} characters`;
    if (text.slice(start, end).trim() !== "" && ++lines > opts.maxLines) {
      return `has more than ${opts.maxLines.toLocaleString("en-US")} lines (line ${lineNo.toLocaleString("en-US")}); split it into smaller lists`;
    }
    if (end === text.length) break;
    start = end + (text[end] === "\r" && text[end + 1] === "\n" ? 2 : 1);
  }
  return null;
}
