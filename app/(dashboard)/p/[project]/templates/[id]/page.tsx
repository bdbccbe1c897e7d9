import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/guard";
import { can } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { getTemplate, listSamples } from "@/lib/server/templates/templates";
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
  return (
    <TemplateScreen
      project={project.externalId}
      template={template}
      initialSamples={samples}
      canWrite={can(user.role, "templates:write")}
      canSend={can(user.role, "messages:send")}
      userEmail={user.email}
    />
  );
}
