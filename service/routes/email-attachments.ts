import { z } from "@hono/zod-openapi";
import { and, asc, eq } from "drizzle-orm";
import { attachmentList, idParam } from "../../contract/wire";
import type { App } from "../context";
import { attachments } from "../db/schema";
import { requireResource, requireScope } from "../lib/auth";
import { notFound } from "../lib/errors";
import { findMessage } from "../lib/messages";
import { jsonAnswer, notFoundResponses, routesTagged } from "./shared";

const route = routesTagged("Emails");
const errors = notFoundResponses("No such message or attachment");

const list = route({
  method: "get", path: "/v1/emails/{id}/attachments",
  request: { params: idParam },
  responses: {
    200: jsonAnswer("The message's attachments; each `url` serves the bytes to an authenticated GET", attachmentList),
    ...errors,
  },
});

const download = route({
  method: "get", path: "/v1/emails/{id}/attachments/{attachmentId}",
  request: { params: idParam.extend({ attachmentId: z.string().min(1).max(200) }) },
  responses: {
    200: {
      description: "The attachment's bytes, as a download",
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errors,
  },
});

/** Quoted for Content-Disposition, plus the RFC 5987 form for names that are not plain ASCII. */
function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function registerAttachments(app: App) {
  app.openapi(list, async (c) => {
    requireScope(c.get("auth"), "emails:read");
    const { id } = c.req.valid("param");
    const deps = c.get("deps");
    await requireResource(c, await findMessage(deps.db, id), "Message");
    const rows = await deps.db
      .select({ id: attachments.id, filename: attachments.filename, contentType: attachments.contentType, size: attachments.size })
      .from(attachments).where(eq(attachments.messageId, id)).orderBy(asc(attachments.id));
    // Absolute URLs: behind a proxy SERVICE_PUBLIC_URL names the public origin, else the request's own.
    const base = (deps.config.SERVICE_PUBLIC_URL ?? new URL(c.req.url).origin).replace(/\/+$/, "");
    const data = rows.map((r) => ({ ...r, url: `${base}/v1/emails/${encodeURIComponent(id)}/attachments/${encodeURIComponent(r.id)}` }));
    return c.json({ data }, 200);
  });

  app.openapi(download, async (c) => {
    requireScope(c.get("auth"), "emails:read");
    const { id, attachmentId } = c.req.valid("param");
    const deps = c.get("deps");
    await requireResource(c, await findMessage(deps.db, id), "Message");
    const [file] = await deps.db.select().from(attachments)
      .where(and(eq(attachments.id, attachmentId), eq(attachments.messageId, id))).limit(1);
    if (!file) throw notFound("Attachment", "attachmentId");
    // Served as a download that browsers must not sniff or render: attachments are untrusted content.
    return c.body(new Uint8Array(file.content), 200, {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Content-Disposition": disposition(file.filename),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-store",
    }) as never;
  });
}
