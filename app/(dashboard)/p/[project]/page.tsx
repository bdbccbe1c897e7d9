import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { rangeFrom } from "@/lib/insight/ranges";
import { getOverview } from "@/lib/server/overview";
import { firstLoad } from "@/components/common/first-load";
import { OverviewScreen } from "./overview-screen";

export const metadata: Metadata = { title: "Overview" };

export default async function ProjectOverviewPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { project } = await guardPage("overview:read", params);
  const initial = await firstLoad(getOverview(project, rangeFrom((await searchParams).range)));
  return <OverviewScreen project={project.externalId} projectName={project.name} initial={initial} />;
}
