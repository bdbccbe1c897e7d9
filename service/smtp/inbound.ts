import { asc, eq } from "drizzle-orm";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";
import { MAX_REQUEST_BYTES, RESERVED_HEADERS } from "../../contract/wire";
import type { Deps } from "../context";
import { domains, type AddressRow } from "../db/schema";
import { addressDomain, receivingDomainFor } from "../lib/domains";
import { safeErrorSummary } from "../../contract/log/safe-error";
import { storeInbound, storeInboundRejection } from "../lib/inbound";

export type InboundSmtp = { port: number; close: () => Promise<void> };

/** An SMTP error answer: smtp-server sends `responseCode` and the message to the client. */
function smtpError(code: number, message: string) {
  return Object.assign(new Error(message), { responseCode: code });
}

const addresses = (field: AddressObject | AddressObject[] | undefined): AddressRow[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((f) => f.value)
    .filter((a) => a.address)
    .map((a) => (a.name ? { email: a.address!, name: a.name } : { email: a.address! }));

/** Extra headers worth keeping; the ones the message fields already carry are left out. */
function extraHeaders(parsed: ParsedMail): Record<string, string> {
  const skip = new Set([...RESERVED_HEADERS, "received", "reply-to", "in-reply-to", "references", "dkim-signature", "return-path"]);
  const out: Record<string, string> = {};
  for (const { key, line } of parsed.headerLines) {
    if (skip.has(key)) continue;
    out[line.slice(0, line.indexOf(":")).trim()] = line.slice(line.indexOf(":") + 1).trim().slice(0, 998);
  }
  return out;
}

const referencesOf = (refs: string | string[] | undefined) => (Array.isArray(refs) ? refs : refs ? refs.split(/\s+/).filter(Boolean) : []);

/**
 * A real SMTP listener for inbound mail (`SERVICE_SMTP_INBOUND_PORT`). It accepts a
 * recipient only when its domain has receiving enabled in some project; others are refused
 * at RCPT with 550. When the domain belongs to a project that does not receive on it, the
 * refusal is recorded there (an inbound message `rejected` with an `inbound_rejected` event);
 * a domain no project knows is only refused. Accepted mail is stored per project, as the
 * simulate operation does, attachments and threading headers included. Plain SMTP without
 * AUTH or STARTTLS: it is a local development listener.
 */
export async function startInboundSmtp(deps: Deps, port: number, host = deps.config.SERVICE_HOST): Promise<InboundSmtp> {
  const { db } = deps;

  async function onRcptTo(address: SMTPServerAddress, session: SMTPServerSession) {
    if (await receivingDomainFor(db, address.address)) return;
    const host = addressDomain(address.address) ?? "";
    const diagnostic = `5.1.1 <${address.address}>: this server does not receive mail for ${host}`;
    const [owner] = await db.select({ projectId: domains.projectId }).from(domains)
      .where(eq(domains.domain, host)).orderBy(asc(domains.id)).limit(1);
    if (owner) {
      const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
      await db.transaction((tx) => storeInboundRejection(tx, {
        projectId: owner.projectId,
        from: { email: mailFrom || "mailer-daemon@unknown.invalid" },
        to: [{ email: address.address }],
        subject: null,
        source: "smtp",
      }, "receiving_disabled", `550 ${diagnostic}`));
      deps.kick();
    }
    throw smtpError(550, diagnostic);
  }

  async function onData(stream: NodeJS.ReadableStream & { sizeExceeded?: boolean }, session: SMTPServerSession) {
    const parsed = await simpleParser(stream as never);
    if (stream.sizeExceeded) throw smtpError(552, "5.3.4 Message too big");
    // Recipients were accepted one by one; group them by the project that receives each.
    const byProject = new Map<string, AddressRow[]>();
    for (const rcpt of session.envelope.rcptTo) {
      const target = await receivingDomainFor(db, rcpt.address);
      if (target) byProject.set(target.projectId, [...(byProject.get(target.projectId) ?? []), { email: rcpt.address }]);
    }
    const from = addresses(parsed.from)[0] ?? { email: session.envelope.mailFrom ? session.envelope.mailFrom.address : "" };
    await db.transaction(async (tx) => {
      for (const [projectId, to] of byProject) {
        await storeInbound(tx, {
          projectId,
          from,
          to,
          cc: addresses(parsed.cc),
          replyTo: addresses(parsed.replyTo),
          subject: parsed.subject ?? null,
          html: parsed.html || null,
          text: parsed.text ?? null,
          headers: extraHeaders(parsed),
          rfcMessageId: parsed.messageId ?? null,
          inReplyTo: parsed.inReplyTo ?? null,
          references: referencesOf(parsed.references),
          attachments: parsed.attachments.map((a) => ({
            filename: a.filename ?? "attachment", contentType: a.contentType || "application/octet-stream", content: a.content,
          })),
          source: "smtp",
        });
      }
    });
    deps.kick();
  }

  const server = new SMTPServer({
    name: "mail-service.local",
    banner: "local email service, inbound",
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: MAX_REQUEST_BYTES,
    logger: false,
    onRcptTo: (address, session, done) => {
      onRcptTo(address, session).then(() => done(), (error: Error & { responseCode?: number }) =>
        done(error.responseCode ? error : smtpError(451, "4.3.0 Temporary failure, try again later")));
    },
    onData: (stream, session, done) => {
      onData(stream, session).then(() => done(), (error: Error & { responseCode?: number }) => {
        stream.resume();
        if (!error.responseCode) console.error(`[service] inbound mail could not be stored: ${safeErrorSummary(error)}`);
        done(error.responseCode ? error : smtpError(451, "4.3.0 Temporary failure, try again later"));
      });
    },
  });
  server.on("error", (error) => console.error(`[service] inbound SMTP error: ${safeErrorSummary(error)}`));

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const actual = (server.server.address() as AddressInfo).port;
  return { port: actual, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
