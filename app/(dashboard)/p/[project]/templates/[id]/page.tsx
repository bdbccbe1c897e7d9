import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/guard";
import { can } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { getTemplate, listSamples, previewTemplate } from "@/lib/server/templates/templates";
import { previewBodyOf } from "./preview-body";
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
  const initialPreview = await previewTemplate(project, previewBodyOf(template, {})).catch(() => undefined);
  return (
    <TemplateScreen
      project={project.externalId}
      template={template}
      initialSamples={samples}
      initialPreview={initialPreview}
      canWrite={can(user.role, "templates:write")}
      canSend={can(user.role, "messages:send")}
      userEmail={user.email}
    />
  );
}
