/** How many people a message goes to (its To, Cc and Bcc), shown on the compose screen before zod has loaded. */
export function recipientCount(v: { to: readonly unknown[]; cc?: readonly unknown[]; bcc?: readonly unknown[] }): number {
  return v.to.length + (v.cc?.length ?? 0) + (v.bcc?.length ?? 0);
}
