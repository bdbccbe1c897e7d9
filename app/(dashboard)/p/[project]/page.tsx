import type { Metadata } from "next";
import { guardPage } from "@/lib/server/guard";
import { getOverview, OVERVIEW_RANGES, type OverviewRange } from "@/lib/server/overview";
import { firstLoad } from "@/components/common/first-load";
import { OverviewScreen } from "./overview-screen";

export const metadata: Metadata = { title: "Overview" };

export default async function ProjectOverviewPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { project } = await guardPage("overview:read", params);
  const sp = await searchParams;
  const range = (OVERVIEW_RANGES as readonly string[]).includes(String(sp.range)) ? (sp.range as OverviewRange) : "7d";
  const initial = await firstLoad(getOverview(project, range));
  return <OverviewScreen project={project.externalId} projectName={project.name} initial={initial} />;
}
