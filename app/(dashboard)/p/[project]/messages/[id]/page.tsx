import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAppError, toPlain } from "@/lib/errors";
import { can } from "@/lib/permissions";
import { guardPage } from "@/lib/server/guard";
import { getMessageDetail } from "@/lib/server/messages/detail";
import { decodeParam } from "@/lib/http/decode-param";
import { MessageScreen } from "./message-screen";
import { MessageLoadError } from "./message-load-error";

export const metadata: Metadata = { title: "Message" };

/** First answer rendered on the server; the screen then polls while the message is not final. */
export default async function MessagePage({ params }: { params: Promise<{ project: string; id: string }> }) {
  const { user, project } = await guardPage("messages:read", params);
  const { id: rawId } = await params;
  const id = decodeParam(rawId);
  try {
    const detail = await getMessageDetail(project, id);
    return <MessageScreen project={project.externalId} id={id} initial={detail} canReply={can(user.role, "messages:reply")} canSend={can(user.role, "messages:send")} />;
  } catch (e) {
    if (isAppError(e) && (e.status === 404 || e.status === 400)) notFound();
    if (!isAppError(e)) throw e;
    return <MessageLoadError project={project.externalId} id={id} error={toPlain(e)} />;
  }
}
