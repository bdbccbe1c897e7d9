import type { Metadata } from "next";
import { guardPage } from "@/lib/server/guard";
import { getOverview, OVERVIEW_RANGES, type OverviewRange } from "@/lib/server/overview";
import { decodeParam } from "@/components/shell/nav";
import { OverviewScreen } from "./overview-screen";

export const metadata: Metadata = { title: "Overview" };

export default async function ProjectOverviewPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [{ project: externalId }, sp] = await Promise.all([params, searchParams]);
  const { project } = await guardPage("overview:read", decodeParam(externalId));
  const range = (OVERVIEW_RANGES as readonly string[]).includes(String(sp.range)) ? (sp.range as OverviewRange) : "7d";
  const initial = await getOverview(project!, range).catch(() => undefined);
  return <OverviewScreen project={project!.externalId} projectName={project!.name} initial={initial} />;
}
