import type { Metadata } from "next";
import { can } from "@/lib/permissions";
import { guardPage } from "@/lib/server/gate/guard";
import { getStreamStatus } from "@/lib/server/event-stream/status";
import { listWebhooks } from "@/lib/server/webhooks";
import { firstLoad, optionalPart } from "@/components/common/first-load";
import { WebhooksScreen } from "./webhooks-screen";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { user, project } = await guardPage("webhooks:read", params);
  const sp = await searchParams;
  const cursor = typeof sp.cursor === "string" ? sp.cursor : undefined;
  // The stream card is an optional part (as on the overview): the webhook list shows without it,
  // and the card asks for its status itself.
  const [initial, stream] = await Promise.all([firstLoad(listWebhooks(project, { cursor })), optionalPart(getStreamStatus(project))]);
  return <WebhooksScreen project={project.externalId} initial={initial} stream={stream} canConnect={can(user.role, "webhooks:write")} />;
}
