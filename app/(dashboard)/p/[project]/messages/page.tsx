import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { can } from "@/lib/permissions";
import { guardPage } from "@/lib/server/gate/guard";
import { getEventStream } from "@/lib/server/event-stream/connect";
import { listMessages } from "@/lib/server/messages/list";
import { messageHref } from "@/components/messages/hrefs";
import { firstLoad } from "@/components/common/first-load";
import { MessagesScreen } from "./messages-screen";
import { parseMessageParams } from "./messages-params";

export const metadata: Metadata = { title: "Messages" };

/** Search, filters and cursor come from the URL, so a pasted link shows the same rows. */
export default async function MessagesPage({
  params,
  searchParams,
}: {
  params: Promise<{ project: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { user, project } = await guardPage("messages:read", params);
  const { filters, query, invalid } = parseMessageParams(await searchParams);
  const { data: page, error } = await firstLoad(listMessages(project, query));
  // A pasted id of a message the index never saw: the service knew it, so open it.
  if (page?.openId) redirect(messageHref(project.externalId, page.openId));
  const stream = await getEventStream(project.id);
  return (
    <MessagesScreen
      project={project.externalId}
      page={page ? { data: page.data, nextCursor: page.nextCursor } : null}
      problems={page?.problems ?? []}
      error={error}
      filters={filters}
      invalid={invalid}
      stream={stream}
      canConnect={can(user.role, "webhooks:write")}
      canSimulate={can(user.role, "inbound:simulate")}
    />
  );
}
