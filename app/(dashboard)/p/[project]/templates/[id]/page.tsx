import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/gate/guard";
import { can } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { getTemplate, listSamples, previewTemplate } from "@/lib/server/templates/manage";
import { presendChecks } from "@/lib/server/presend/checks";
import { presendRequest, type PresendResult } from "@/lib/schemas/presend";
import { checksDraftOf, previewBodyOf } from "./preview-body";
import { optionalPart } from "@/components/common/first-load";
import { rewriteForFirstRender } from "@/lib/server/messages/html-rewrite-pool";
import { TemplateScreen } from "./template-screen";

export const metadata: Metadata = { title: "Template" };

export default async function TemplatePage({ params }: { params: Promise<{ project: string; id: string }> }) {
  const { user, project } = await guardPage("templates:read", params);
  const { id } = await params;
  const templateId = decodeParam(id);
  const [template, samples] = await Promise.all([
    getTemplate(project, templateId).catch((e) => {
      if (isAppError(e) && (e.status === 404 || e.status === 400)) notFound();
      throw e;
    }),
    listSamples(project, templateId),
  ]);
  // The preview the screen opens on (no merge data yet), so it does not ask for it as it appears.
  const opening = previewBodyOf(template, {});
  const preview = optionalPart(previewTemplate(project, opening));
  // The checks of that opening draft stream in after the page (SpamAssassin may take a second); the screen
  // asks for them, with the answer's parser, only once the draft changes. Like the route, only for senders;
  // null: they failed, and the screen runs them itself and shows why. Started once the preview's request is
  // on its way, so their work (CPU) overlaps that wait instead of delaying the page.
  const initialChecks: Promise<PresendResult | null> | undefined = can(user.role, "messages:send")
    ? optionalPart(new Promise<void>((resolve) => setImmediate(resolve)).then(() => presendChecks(presendRequest.parse({ draft: checksDraftOf(opening), spam: true }), { userId: user.id })))
    : undefined;
  const initialPreview = await preview;
  // That preview's html rewritten for its frames here (in a worker, as a message's html is), so
  // the screen draws them without loading the rewriter — about 37 KiB of its first load — until
  // the preview changes; html the pool leaves (too long, server busy) loads it then.
  const html = initialPreview?.html;
  const rewritten = html ? await rewriteForFirstRender(html) : null;
  const initialFrame = html && rewritten ? { source: html, rewritten } : undefined;
  return (
    <TemplateScreen
      project={project.externalId}
      template={template}
      initialSamples={samples}
      initialPreview={initialPreview ?? undefined}
      initialFrame={initialFrame}
      initialChecks={initialChecks}
      canWrite={can(user.role, "templates:write")}
      canSend={can(user.role, "messages:send")}
      userEmail={user.email}
    />
  );
}
