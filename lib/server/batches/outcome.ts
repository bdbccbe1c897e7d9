import "server-only";

/** What one row of a job came to at the service, as the runner writes it (runner.ts, contact-rows.ts, suppression-rows.ts). */
export type Outcome = {
  row: number;
  status: "sent" | "failed" | "duplicate" | "suppressed";
  messageId: string | null;
  error: { message: string; code: string; field: string | null } | null;
};
