import nodemailer, { type Transporter } from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import type { attachments } from "../db/schema";
import type { MessageRow } from "./events";

type AttachmentRow = typeof attachments.$inferSelect;

/** One transport per relay URL, kept for the life of the process (connections are pooled). */
const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    // Options given in the URL's query (`?tls.rejectUnauthorized=false`) win over these defaults.
    transport = nodemailer.createTransport(`${url}${url.includes("?") ? "&" : "?"}pool=true&maxConnections=4`);
    transports.set(url, transport);
  }
  return transport;
}

export function closeRelayTransports() {
  for (const t of transports.values()) t.close();
  transports.clear();
}

/** Tags travel as one header each, `X-Tag-<name>: <value>`, so receiving filters can match on them. */
export function tagHeaders(tags: { name: string; value: string }[]): Record<string, string | string[]> {
  const out: Record<string, string[]> = {};
  for (const t of tags) (out[`X-Tag-${t.name}`] ??= []).push(t.value);
  return out;
}

/** The MIME message of a stored outbound message, exactly as it is relayed. */
export function mailOptions(message: MessageRow, files: AttachmentRow[]): Mail.Options {
  const addr = (a: { email: string; name?: string }) => (a.name ? { name: a.name, address: a.email } : a.email);
  return {
    from: addr({ email: message.from, name: message.fromName ?? undefined }),
    to: message.to.map(addr),
    cc: message.cc.map(addr),
    bcc: message.bcc.map(addr),
    replyTo: message.replyTo.length ? message.replyTo.map(addr) : undefined,
    subject: message.subject ?? "",
    html: message.html ?? undefined,
    text: message.text ?? undefined,
    messageId: message.rfcMessageId,
    inReplyTo: message.inReplyTo ?? undefined,
    references: message.references.length ? message.references : undefined,
    headers: { ...message.headers, ...tagHeaders(message.tags), "X-Service-Message-Id": message.id },
    attachments: files.map((f) => ({ filename: f.filename, content: f.content, contentType: f.contentType })),
  };
}

type RecipientError = { recipient?: string; responseCode?: number; response?: string };
type SmtpError = Error & { code?: string; responseCode?: number; response?: string; command?: string; rejectedErrors?: RecipientError[] };

export type RelayResult =
  /** The relay took the message for at least one recipient; `bounced` lists permanent refusals of others. */
  | { kind: "accepted"; response: string; accepted: string[]; bounced: { recipient: string; diagnostic: string }[] }
  /** A permanent (5xx) refusal of the whole message. `recipientLevel` when every recipient was refused at RCPT. */
  | { kind: "bounced"; diagnostic: string; bounced: { recipient: string; diagnostic: string }[]; recipientLevel: boolean }
  /** Worth retrying: connection trouble or a 4xx answer. */
  | { kind: "transient"; error: string };

const permanent = (e: RecipientError) => (e.responseCode ?? 0) >= 500;
const bouncedOf = (errors: RecipientError[] = []) =>
  errors.filter(permanent).map((e) => ({ recipient: e.recipient ?? "", diagnostic: e.response ?? "" }));

/** Hands the message to the SMTP relay; the SMTP answer decides what happened. */
export async function relay(url: string, message: MessageRow, files: AttachmentRow[]): Promise<RelayResult> {
  try {
    const info = await transportFor(url).sendMail(mailOptions(message, files));
    const accepted = (info.accepted ?? []).map(String);
    const rejectedErrors = (info as { rejectedErrors?: RecipientError[] }).rejectedErrors;
    return { kind: "accepted", response: String(info.response ?? ""), accepted, bounced: bouncedOf(rejectedErrors) };
  } catch (error) {
    const e = error as SmtpError;
    const diagnostic = e.response ?? e.message;
    if (e.rejectedErrors?.length) {
      // Every recipient refused: a bounce when all refusals are permanent, otherwise try later.
      if (e.rejectedErrors.every(permanent)) {
        return { kind: "bounced", diagnostic, bounced: bouncedOf(e.rejectedErrors), recipientLevel: true };
      }
      return { kind: "transient", error: diagnostic };
    }
    if ((e.responseCode ?? 0) >= 500) return { kind: "bounced", diagnostic, bounced: [], recipientLevel: false };
    return { kind: "transient", error: `${e.code ?? "ERROR"}: ${diagnostic}` };
  }
}
