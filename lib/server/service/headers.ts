/**
 * The only place the request headers toward the service are built, the account-wide key's
 * `Authorization` among them. The client (./client.ts), the links it follows and the access
 * check (./access-check.ts, also run by `npm start` outside Next) all take theirs from here.
 *
 * No "server-only" import, for that script; the key is always passed in by the caller, which
 * read it from the server's environment.
 */
export type ServiceHeaderOptions = {
  /** The account-wide key (SERVICE_API_KEY). */
  key: string;
  /** External id of the project, from the guard; omitted for account-wide reads. */
  project?: string | null;
  idempotencyKey?: string;
  /** The request carries a JSON body. */
  jsonBody?: boolean;
  /** Ask for JSON; off for links to files (an attachment's bytes). */
  acceptJson?: boolean;
};

export function serviceHeaders(opts: ServiceHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = { Authorization: `Bearer ${opts.key}` };
  if (opts.acceptJson !== false) headers.Accept = "application/json";
  if (opts.project) headers["X-Service-Product"] = opts.project;
  if (opts.idempotencyKey) headers["Idempotency-Key"] = opts.idempotencyKey;
  if (opts.jsonBody) headers["Content-Type"] = "application/json";
  return headers;
}
