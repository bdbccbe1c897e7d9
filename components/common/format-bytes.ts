/** A size for people: bytes, KB or MB with one decimal (attachments, a draft's parts). Its own file, so a panel that shows sizes loads no attachment picker. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
