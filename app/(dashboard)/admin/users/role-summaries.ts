import type { Role } from "@/lib/permissions";

/** One line per role for the create and change-role controls; the map itself is lib/permissions.ts. */
export const ROLE_SUMMARIES: Record<Role, string> = {
  admin: "Everything, including domains, API keys and webhooks; users, projects, the audit log and account-wide keys only with access to every project.",
  support: "Reads messages, sends and replies, manages suppressions.",
  marketer: "Reads messages, sends batches, edits templates and contacts.",
};
