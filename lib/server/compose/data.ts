import "server-only";
import { isAppError } from "@/lib/errors";
import { RESERVED_HEADERS } from "@/lib/schemas/emails";
import type { Address } from "@/lib/schemas/common";
import { splitNamedAddress } from "@/lib/messages/address-text";
import type { ComposeOptions, ComposePrefill } from "@/lib/schemas/compose";
import type { Project } from "@/lib/server/gate/access";
import { readMessage } from "@/lib/server/message-index/read";
import { findIndexedMessage } from "@/lib/server/messages/search";
import { service } from "@/lib/server/service";

/** `Ada <ada@example.com>` or a bare address, as the service returns them (an inbound From is a stranger's text). */
export function parseAddress(value: string): Address {
  const m = splitNamedAddress(value);
  if (m) return m.name ? { email: m.email, name: m.name } : { email: m.email };
  return { email: value.trim() };
}

/** Verified domains to send from and the templates to choose from, read in parallel. */
export async function composeOptions(project: Project): Promise<ComposeOptions> {
  const warnings: string[] = [];
  const [domains, templates] = await Promise.all([
    service.domains.list(project.externalId, { status: "verified", limit: 100 }).catch((e) => {
      warnings.push(`Verified domains could not be loaded (${isAppError(e) ? e.message : "unknown error"}); type the sender address.`);
      return { data: [], nextCursor: null };
    }),
    service.templates.list(project.externalId, { limit: 100 }).catch((e) => {
      warnings.push(`Templates could not be loaded (${isAppError(e) ? e.message : "unknown error"}).`);
      return { data: [], nextCursor: null };
    }),
  ]);
  return {
    // The list filter is a request; a service that ignores it must not offer pending domains.
    domains: domains.data.filter((d) => !d.status || d.status === "verified").map((d) => d.domain),
    templates: templates.data.map((t) => ({ id: t.id, name: t.name, slug: t.slug, variables: t.variables })),
    warnings,
  };
}

/**
 * "Send again": what is known of an earlier message, read from the service, plus the merge
 * data the index kept when the dashboard sent it (the interface does not return it). Null
 * when the message cannot be read.
 */
export async function composePrefill(project: Project, messageId: string): Promise<ComposePrefill | null> {
  const [m, indexed] = await Promise.all([
    readMessage(project, messageId).catch(() => null),
    findIndexedMessage(project.id, messageId),
  ]);
  if (!m || m.direction !== "outbound") return null;
  const headers = Object.entries(m.headers ?? {})
    .filter(([name]) => !RESERVED_HEADERS.includes(name.toLowerCase()))
    .map(([name, value]) => ({ name, value }));
  return {
    sourceId: m.id,
    from: parseAddress(m.from),
    to: m.to.map(parseAddress),
    cc: (m.cc ?? []).map(parseAddress),
    bcc: (m.bcc ?? []).map(parseAddress),
    replyTo: (m.replyTo ?? []).map(parseAddress),
    subject: m.subject ?? undefined,
    html: m.html ?? undefined,
    text: m.text ?? undefined,
    templateId: m.templateId ?? indexed?.templateId ?? undefined,
    data: asFormData(indexed?.templateData),
    tags: m.tags ?? [],
    headers,
  };
}

/** Merge data as the compose form holds it: one text per variable (other JSON as JSON). */
function asFormData(data: Record<string, unknown> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
}
