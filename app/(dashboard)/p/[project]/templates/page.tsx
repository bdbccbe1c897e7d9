import type { Metadata } from "next";
import { pageQuery } from "@/lib/schemas/common";
import { guardPage } from "@/lib/server/gate/guard";
import { listTemplates } from "@/lib/server/templates/manage";
import { firstLoad } from "@/components/common/first-load";
import { TemplatesScreen } from "./templates-screen";

export const metadata: Metadata = { title: "Templates" };

export default async function TemplatesPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<{ cursor?: string }> }) {
  const { project } = await guardPage("templates:read", params);
  const { cursor } = await searchParams;
  const first = await firstLoad(listTemplates(project, pageQuery.parse(typeof cursor === "string" && cursor ? { cursor, limit: 20 } : { limit: 20 })));
  return <TemplatesScreen project={project.externalId} initial={first} />;
}
