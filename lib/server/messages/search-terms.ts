import "server-only";
import { eq, gt, gte, ilike, lt, ne, not, or, sql, type SQL } from "drizzle-orm";
import type { SearchTerm } from "@/lib/messages/search-query/terms";
import { EMAIL_PATTERN } from "@/lib/schemas/common";
import { indexedMessages as m, indexedRecipients as r } from "@/lib/server/db/schema/messages";

/**
 * The search language's terms as conditions on the index, every value a bound parameter.
 * Each positive term picks an index (search.ts's comment lists them); a negated one is the
 * same condition under `not`, a filter on the rows the others found.
 */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (s: string) => `%${escapeLike(s)}%`;

/**
 * Messages with an address, in any role or one: a whole address by equality on
 * indexed_recipients' (project, email) index; part of one by substring on this message's own
 * address rows (its primary key), a filter on the rows other terms found.
 */
function hasAddress(projectId: string, value: string, role: "from" | "to" | "cc" | null): SQL {
  const roleIs = role ? sql`and ${r.role} = ${role}` : sql``;
  if (EMAIL_PATTERN.test(value)) {
    return sql`${m.id} in (select ${r.messageId} from ${r} where ${r.projectId} = ${projectId} and ${r.email} = ${value.toLowerCase()} ${roleIs})`;
  }
  return sql`exists (select 1 from ${r} where ${r.messageId} = ${m.id} and ${r.email} like ${contains(value.toLowerCase())} ${roleIs})`;
}

/** A free word or phrase: a whole address in any role, else the subject or the sender by substring (trigram indexes). */
function hasText(projectId: string, value: string): SQL {
  if (EMAIL_PATTERN.test(value)) return hasAddress(projectId, value, null);
  return or(ilike(m.subject, contains(value)), ilike(m.from, contains(value)))!;
}

function positive(projectId: string, t: SearchTerm): SQL {
  switch (t.field) {
    case "to":
    case "cc":
      return hasAddress(projectId, t.value, t.field);
    case "from":
      // The sender is on the row itself too; a whole address still goes through its index.
      return EMAIL_PATTERN.test(t.value) ? hasAddress(projectId, t.value, "from") : ilike(m.from, contains(t.value));
    case "subject":
      return ilike(m.subject, contains(t.value));
    case "tag":
      return sql`${m.tags} @> ${JSON.stringify([t.value === null ? { name: t.name } : { name: t.name, value: t.value }])}::jsonb`;
    case "status":
      return eq(m.status, t.value);
    case "direction":
      return eq(m.direction, t.value);
    case "id":
      return eq(m.id, t.value);
    case "has":
      return gt(m.attachmentCount, 0);
    case "after":
      return gte(m.createdAt, new Date(t.at));
    case "before":
      return lt(m.createdAt, new Date(t.at));
    case "text":
      return hasText(projectId, t.value);
  }
}

/**
 * One term's condition. Negated: true where the positive one is not — a null subject or an
 * unknown attachment count is "not matching", never a row lost to SQL's three-valued `not`.
 */
export function termCondition(projectId: string, t: SearchTerm): SQL {
  if (!t.negated) return positive(projectId, t);
  if (t.field === "status") return ne(m.status, t.value);
  if (t.field === "direction") return ne(m.direction, t.value);
  return not(sql`coalesce(${positive(projectId, t)}, false)`);
}
