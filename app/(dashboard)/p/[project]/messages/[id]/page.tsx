import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { can } from "@/lib/permissions";
import { guardPage } from "@/lib/server/gate/guard";
import { getMessageDetail } from "@/lib/server/messages/detail";
import { decodeParam } from "@/lib/http/decode-param";
import { rewriteForFirstRender } from "@/lib/server/messages/html-rewrite-pool";
import { firstLoad } from "@/components/common/first-load";
import { MessageScreen } from "./message-screen";
import { MessageLoadError } from "./message-load-error";

export const metadata: Metadata = { title: "Message" };

/** First answer rendered on the server; the screen then polls while the message is not final. */
export default async function MessagePage({ params }: { params: Promise<{ project: string; id: string }> }) {
  const { user, project } = await guardPage("messages:read", params);
  const { id: rawId } = await params;
  const id = decodeParam(rawId);
  const first = await firstLoad(getMessageDetail(project, id));
  if (first.error?.status === 404 || first.error?.status === 400) notFound();
  if (first.error) return <MessageLoadError project={project.externalId} id={id} error={first.error} />;
  // The html as its frame opens, rewritten here in a worker, so the screen draws it without loading the rewriter.
  const html = first.data.message.html;
  const initialFrame = html ? await rewriteForFirstRender(html) : null;
  return <MessageScreen project={project.externalId} id={id} initial={first.data} initialFrame={initialFrame} canReply={can(user.role, "messages:reply")} canSend={can(user.role, "messages:send")} />;
}
