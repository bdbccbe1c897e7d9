import type { Role } from "@/lib/permissions";

/** One line per role for the create and change-role controls; the map itself is lib/permissions.ts. */
export const ROLE_SUMMARIES: Record<Role, string> = {
  admin: "Everything, including users, projects, API keys, webhooks and the audit log.",
  support: "Reads messages, sends and replies, manages suppressions.",
  marketer: "Reads messages, sends batches, edits templates and contacts.",
};
