import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { getAlerts } from "@/lib/server/alerts/view";
import { firstLoad } from "@/components/common/first-load";
import { AlertsScreen } from "./alerts-screen";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await guardPage("overview:read", params);
  const initial = await firstLoad(getAlerts(project));
  return <AlertsScreen project={project.externalId} initial={initial} />;
}
