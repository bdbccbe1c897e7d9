// No "server-only": the pre-send check worker (lib/server/presend/check-worker.ts) builds the message off the request thread.
import MailComposer from "nodemailer/lib/mail-composer";
import type { PresendDraftParsed } from "@/lib/schemas/presend";

/** Placeholders when the screen has no sender or recipient yet (a template on its own). */
export const PLACEHOLDER_FROM = "sender@example.com";
export const PLACEHOLDER_TO = "recipient@example.com";

/** Headers the composer writes itself; a draft's own copy would be a duplicate. */
const COMPOSER_HEADERS = new Set(["from", "to", "cc", "bcc", "subject", "date", "message-id", "mime-version", "content-type", "content-transfer-encoding"]);

/**
 * The draft as the MIME message a mailbox would receive, for SpamAssassin to score: the
 * same subject, html, text and custom headers, with Date and Message-ID as a sending
 * service adds them. Attachments go in by name and type with empty bodies — the checks are
 * given their sizes, never their bytes, and SpamAssassin judges attachments by name and type.
 */
export async function buildMessage(draft: PresendDraftParsed, to = PLACEHOLDER_TO): Promise<Buffer> {
  const headers = Object.fromEntries(
    Object.entries(draft.headers)
      .filter(([name]) => !COMPOSER_HEADERS.has(name.toLowerCase()))
      // A line break in a value would start a header of its own.
      .map(([name, value]) => [name.replace(/[^\x21-\x39\x3b-\x7e]/g, ""), value.replace(/[\r\n]+/g, " ")]),
  );
  const composer = new MailComposer({
    from: draft.from ?? PLACEHOLDER_FROM,
    to,
    subject: draft.subject,
    ...(draft.html ? { html: draft.html } : {}),
    ...(draft.text ? { text: draft.text } : {}),
    headers,
    attachments: draft.attachments.map((a) => ({ filename: a.filename, content: Buffer.alloc(0), ...(a.contentType ? { contentType: a.contentType } : {}) })),
  });
  return composer.compile().build();
}
