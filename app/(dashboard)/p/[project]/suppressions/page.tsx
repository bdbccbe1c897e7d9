import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { listSuppressions } from "@/lib/server/suppressions";
import { firstLoad } from "@/components/common/first-load";
import { SuppressionsScreen } from "./suppressions-screen";

export const metadata: Metadata = { title: "Suppressions" };

export default async function SuppressionsPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { project } = await guardPage("suppressions:read", params);
  const sp = await searchParams;
  const cursor = typeof sp.cursor === "string" ? sp.cursor : undefined;
  const initial = await firstLoad(listSuppressions(project, { cursor }));
  return <SuppressionsScreen project={project.externalId} initial={initial} />;
}
