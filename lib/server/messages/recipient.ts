import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { contactPerson } from "@/contract/wire/contacts";
import { isAppError } from "@/lib/errors";
import { db } from "@/lib/server/db";
import { contactsIndex } from "@/lib/server/db/schema/contacts-index";
import { messageListQuery, type MessageListQuery, type RecipientView } from "@/lib/schemas/messages-index";
import type { Project } from "@/lib/server/gate/access";
import { recipientEngagement } from "@/lib/server/insight/engagement";
import { searchMessages } from "./search";
import { suppressionsOf } from "./suppression-of";

/**
 * Everything known about one address: its messages both ways (the index), its engagement
 * (received, delivered, opened, clicked, lib/server/insight/engagement.ts), whether the
 * service suppresses it and why, and its contact record when the dashboard's contacts index
 * knows it (the interface cannot look a contact up by address).
 */
/** `email` is already read with its schema (lib/schemas/params.ts) by the route or the page. */
export async function getRecipient(project: Project, email: string, query: Pick<MessageListQuery, "cursor" | "limit"> = {}): Promise<RecipientView> {
  const lower = email.toLowerCase();
  const [messages, suppression, contact, engagement] = await Promise.all([
    // Quoted: an address is one phrase of the search language, whatever its characters (a leading -).
    // The search is made here, so read here (the page hands over the URL's cursor as it came).
    searchMessages(project.id, messageListQuery.parse({ ...query, q: `"${lower}"` })).then(({ problems: _, ...page }) => page),
    suppressionsOf(project.externalId, [lower]).then(
      (found) => ({ value: found[0] ?? null, error: null }),
      (e: unknown) => ({ value: null, error: isAppError(e) ? e.message : "The suppression list could not be read." }),
    ),
    contactOf(project.id, lower),
    recipientEngagement(project.id, lower),
  ]);
  return { email: lower, messages, suppression: suppression.value, suppressionError: suppression.error, contact, engagement };
}

async function contactOf(projectId: string, email: string): Promise<RecipientView["contact"]> {
  const [row] = await (await db())
    .select()
    .from(contactsIndex)
    .where(and(eq(contactsIndex.projectId, projectId), eq(contactsIndex.email, email)))
    .orderBy(desc(contactsIndex.seenAt))
    .limit(1);
  return row ? contactPerson(row) : null;
}
