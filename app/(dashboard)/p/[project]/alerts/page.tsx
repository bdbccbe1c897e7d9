import type { Metadata } from "next";
import { guardPage } from "@/lib/server/guard";
import { getAlerts } from "@/lib/server/alerts/view";
import { AlertsScreen } from "./alerts-screen";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await guardPage("overview:read", params);
  const initial = await getAlerts(project).catch(() => undefined);
  return <AlertsScreen project={project.externalId} initial={initial} />;
}
