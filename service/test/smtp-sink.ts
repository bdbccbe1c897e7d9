import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type SinkMail = { envelope: { from: string; to: string[] }; raw: Buffer; parsed: ParsedMail };

/**
 * A real SMTP server that keeps what it receives. `rcpt` decides per recipient: a number
 * (an SMTP code) refuses it, undefined accepts it; `data` may refuse the whole message.
 */
export async function startSmtpSink(opts: { rcpt?: (address: string) => number | undefined; data?: () => number | undefined; port?: number } = {}) {
  const mails: SinkMail[] = [];
  const refuse = (code: number) => Object.assign(new Error(code >= 500 ? "5.1.1 User unknown" : "4.2.0 Try again later"), { responseCode: code });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onRcptTo(address, _session, done) {
      const code = opts.rcpt?.(address.address);
      done(code ? refuse(code) : undefined);
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const code = opts.data?.();
        if (code) return done(refuse(code));
        const raw = Buffer.concat(chunks);
        mails.push({
          envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address) },
          raw,
          parsed: await simpleParser(raw),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
