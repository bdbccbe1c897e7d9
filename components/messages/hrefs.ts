/** Links of the message screens; plain functions, usable from server and client components alike. */
export function messageHref(project: string, id: string): string {
  return `/p/${encodeURIComponent(project)}/messages/${encodeURIComponent(id)}`;
}

/** Everything about one address (its messages, suppression, contact). */
export function recipientHref(project: string, email: string): string {
  return `/p/${encodeURIComponent(project)}/recipients/${encodeURIComponent(email)}`;
}
