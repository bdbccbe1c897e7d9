import type { Metadata } from "next";
import { DELIVERABILITY_RANGES, type DeliverabilityRange } from "@/lib/schemas/deliverability";
import { guardPage } from "@/lib/server/guard";
import { getDeliverability } from "@/lib/server/alerts/deliverability";
import { firstLoad } from "@/components/common/first-load";
import { DeliverabilityScreen } from "./deliverability-screen";

export const metadata: Metadata = { title: "Deliverability" };

export default async function DeliverabilityPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { project } = await guardPage("overview:read", params);
  const sp = await searchParams;
  const range = (DELIVERABILITY_RANGES as readonly string[]).includes(String(sp.range)) ? (sp.range as DeliverabilityRange) : "7d";
  const initial = await firstLoad(getDeliverability(project, range));
  return <DeliverabilityScreen project={project.externalId} initial={initial} />;
}
