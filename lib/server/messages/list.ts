import "server-only";
import { isAppError } from "@/lib/errors";
import type { MessageListQueryParsed, MessageSearchPage } from "@/lib/schemas/messages-index";
import type { Project } from "@/lib/server/gate/access";
import { looksLikeMessageId } from "@/lib/messages/message-id";
import { readMessage } from "@/lib/server/message-index/read";
import { findIndexedMessage, searchMessages } from "./search";

/**
 * The search, plus the pasted-id case: text that looks like a message id opens that message
 * (`openId`). One the index does not know is asked of the service and, when it exists,
 * indexed first. `query` is read with `messageListQuery` by the route or the page.
 */
export async function listMessages(project: Project, query: MessageListQueryParsed): Promise<MessageSearchPage> {
  const text = query.q;
  if (text && !query.cursor && looksLikeMessageId(text)) {
    // Pasting an id means "open it": known to the index or not.
    if (await findIndexedMessage(project.id, text)) return { ...(await searchMessages(project.id, query)), openId: text };
    try {
      const found = await readMessage(project, text, { fresh: true, indexFirst: true });
      return { ...(await searchMessages(project.id, query)), openId: found.id };
    } catch (e) {
      // Not a message id after all (or the service cannot say): an ordinary search.
      if (!isAppError(e)) throw e;
    }
  }
  return { ...(await searchMessages(project.id, query)), openId: null };
}
