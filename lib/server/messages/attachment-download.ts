import "server-only";
import { AppError } from "@/lib/errors";
import type { Project } from "@/lib/server/gate/access";
import { API_CONTENT_SECURITY_POLICY } from "@/lib/server/http/security-headers";
import { service } from "@/lib/server/service";

/** RFC 6266: an ASCII fallback plus the UTF-8 name, so no name can break the header. */
function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * One attachment's bytes, through the dashboard: the browser never sees the service's URL or
 * key, and the answer is always a download (`attachment`, `nosniff`, a sandbox CSP) so an
 * HTML or SVG attachment can never run in the dashboard's origin.
 */
export async function downloadAttachment(project: Project, messageId: string, attachmentId: string): Promise<Response> {
  const list = await service.emails.attachments(project.externalId, messageId);
  const meta = list.data.find((a) => a.id === attachmentId);
  if (!meta) throw new AppError(404, "not_found", "Attachment not found.");
  const upstream = await service.emails.downloadAttachment(meta.url);
  return new Response(upstream.body, {
    status: 200,
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": disposition(meta.filename),
      "X-Content-Type-Options": "nosniff",
      // The same policy next.config.mjs gives every /api answer (which Next keeps over a route's own).
      "Content-Security-Policy": API_CONTENT_SECURITY_POLICY,
      ...(upstream.headers.get("content-length") ? { "Content-Length": upstream.headers.get("content-length")! } : {}),
    },
  });
}
