import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { can } from "@/lib/permissions";
import { listScheduled } from "@/lib/server/compose/scheduled";
import { ScheduledScreen } from "./scheduled-screen";

export const metadata: Metadata = { title: "Scheduled" };

// Always fresh: the list changes as sends go out.
export const dynamic = "force-dynamic";

export default async function ScheduledPage({ params }: { params: Promise<{ project: string }> }) {
  const { user, project } = await guardPage("messages:read", params);
  return <ScheduledScreen project={project.externalId} items={await listScheduled(project)} canCompose={can(user.role, "messages:send")} />;
}
