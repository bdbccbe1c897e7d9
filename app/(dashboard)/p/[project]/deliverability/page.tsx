import type { Metadata } from "next";
import { rangeFrom } from "@/lib/insight/ranges";
import { guardPage } from "@/lib/server/gate/guard";
import { getDeliverability } from "@/lib/server/alerts/deliverability";
import { firstLoad } from "@/components/common/first-load";
import { DeliverabilityScreen } from "./deliverability-screen";

export const metadata: Metadata = { title: "Deliverability" };

export default async function DeliverabilityPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { project } = await guardPage("overview:read", params);
  const initial = await firstLoad(getDeliverability(project, rangeFrom((await searchParams).range)));
  return <DeliverabilityScreen project={project.externalId} initial={initial} />;
}
