import "server-only";
import { connect } from "node:net";

/**
 * A client of SpamAssassin's spamd, speaking the SPAMC/SPAMD protocol (the line protocol
 * `spamc` uses, version 1.5) over TCP: one request per connection, the message counted by
 * Content-length, spamd answering with a status line, headers and a body, then closing.
 */
export type SpamdOptions = { host: string; port: number; timeoutMs: number };

export type SpamdResponse = {
  /** 0 is EX_OK; anything else is spamd's error code (EX_PROTOCOL 76, EX_TEMPFAIL 75…). */
  code: number;
  message: string;
  headers: Record<string, string>;
  body: string;
};

/** spamd's answer to REPORT is the report of one message; more than this is not spamd. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export class SpamdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpamdError";
  }
}

export function spamdRequest(command: "PING" | "CHECK" | "SYMBOLS" | "REPORT", message: Buffer | null, options: SpamdOptions): Promise<SpamdResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: options.host, port: options.port });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(e);
    };
    // A deadline for the whole exchange, not an idle timeout: a spamd sending a byte every
    // second would otherwise hold the check (and its user's turn) for as long as it liked.
    const deadline = setTimeout(() => {
      const what = size ? "did not finish its answer" : "did not answer";
      fail(new SpamdError(`spamd at ${options.host}:${options.port} ${what} within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    socket.once("close", () => clearTimeout(deadline));
    socket.on("error", (e: NodeJS.ErrnoException) =>
      fail(new SpamdError(e.code === "ECONNREFUSED" ? `nothing listens at ${options.host}:${options.port} (is spamd running?)` : `spamd at ${options.host}:${options.port}: ${e.message}`)),
    );
    socket.on("connect", () => {
      const head = [`${command} SPAMC/1.5`];
      if (message) head.push(`Content-length: ${message.length}`);
      socket.write(`${head.join("\r\n")}\r\n\r\n`);
      if (message) socket.write(message);
      // spamd reads Content-length bytes; closing our side tells it nothing more is coming.
      socket.end();
    });
    socket.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) return fail(new SpamdError("spamd sent more than 1 MB; refusing to read it"));
      chunks.push(chunk);
    });
    socket.on("end", () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      try {
        resolve(parseResponse(Buffer.concat(chunks).toString("utf8")));
      } catch (e) {
        reject(e);
      }
    });
  });
}

/** `SPAMD/1.1 0 EX_OK` + headers + blank line + body. */
export function parseResponse(raw: string): SpamdResponse {
  const headEnd = raw.indexOf("\r\n\r\n");
  const head = headEnd === -1 ? raw.replace(/\r\n$/, "") : raw.slice(0, headEnd);
  const body = headEnd === -1 ? "" : raw.slice(headEnd + 4);
  const [status = "", ...lines] = head.split("\r\n");
  const m = /^SPAMD\/\d+\.\d+\s+(\d+)\s+(.*)$/.exec(status);
  if (!m) throw new SpamdError(`spamd answered something that is not the SPAMD protocol: ${JSON.stringify(status.slice(0, 80))}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { code: Number(m[1]), message: m[2]!, headers, body };
}

/** `Spam: True ; 15.2 / 5.0` → the verdict, the score and the threshold. */
export function parseSpamHeader(value: string | undefined): { isSpam: boolean; score: number; threshold: number } | null {
  const m = /^\s*(True|False|Yes|No)\s*;\s*(-?\d+(?:\.\d+)?)\s*\/\s*(-?\d+(?:\.\d+)?)/i.exec(value ?? "");
  if (!m) return null;
  return { isSpam: /^(true|yes)$/i.test(m[1]!), score: Number(m[2]), threshold: Number(m[3]) };
}
