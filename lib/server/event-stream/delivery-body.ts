import "server-only";
import type http from "node:http";
import { bodyTooSlow, watchArrival } from "@/lib/server/http/arrival-rate";
import type { Hold } from "@/lib/server/http/inflight-budget";
import { bodyCutOff } from "@/lib/server/http/error-answer";
import { deliveryTooLarge, deliveryTooSlow, ingestBusy, type IngestLimits } from "./ingest-limits";
import type { SignatureCheck } from "./verify";

/**
 * A delivery's body, pulled chunk by chunk, whichever door it came through: Node's request on
 * the fast path (./fast-path.ts), the web Request's stream in the route. Nothing is read
 * until the ingest asks (./ingest.ts checks headers, project and budget first), and reading
 * stops at once when it is told to: what the sender still sends is dropped after the answer,
 * never held, and then the connection closed (lib/server/http/node-answer.ts).
 */
export type BodySource = {
  /** The next chunk, null at the end; rejects when the sender went away mid-body. */
  next(): Promise<Uint8Array | null>;
  /** Reads no more. */
  stop(): void;
};

/** Node's request, in paused mode: a chunk is taken off the socket only when asked for. */
export function nodeBody(req: http.IncomingMessage): BodySource {
  let ended = req.readableEnded;
  let failed = false;
  let wake: (() => void) | null = null;
  const poke = () => wake?.();
  const onEnd = () => {
    ended = true;
    poke();
  };
  const onError = () => {
    failed = true;
    poke();
  };
  const onClose = () => {
    if (!ended) failed = true;
    poke();
  };
  req.on("readable", poke);
  req.on("end", onEnd);
  req.on("error", onError);
  req.on("close", onClose);
  return {
    async next() {
      for (;;) {
        const chunk = req.read() as Buffer | null;
        if (chunk !== null) return chunk;
        if (ended) return null;
        if (failed) throw bodyCutOff();
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    },
    stop() {
      req.off("readable", poke);
      req.off("end", onEnd);
      req.off("close", onClose);
      // Kept: an error after we stopped (the sender resets the connection) must not go unhandled.
      req.off("error", onError);
      req.on("error", () => {});
      req.pause();
    },
  };
}

/** A web Request's body (the route, tests). */
export function webBody(body: ReadableStream<Uint8Array> | null): BodySource {
  if (!body) return bytesBody(new Uint8Array(0));
  const reader = body.getReader();
  return {
    async next() {
      try {
        const { done, value } = await reader.read();
        return done ? null : value;
      } catch {
        throw bodyCutOff();
      }
    },
    stop() {
      reader.cancel().catch(() => {});
    },
  };
}

/** A body already in memory (ingestDelivery's callers: tests and tools). */
export function bytesBody(bytes: Uint8Array): BodySource {
  let given = false;
  return {
    async next() {
      if (given || bytes.byteLength === 0) return null;
      given = true;
      return bytes;
    },
    stop() {},
  };
}

/**
 * The whole body, each chunk fed to the signature check as it arrives, under the ingest's
 * bounds (./ingest-limits.ts): past `maxBytes` a 413; past what `hold` can take (the in-flight
 * budget, or the address's share of it) a 429; a window in which less than the arrival rate came
 * a 408, and so is a body later than `bodyTimeoutMs` — reading stops at the chunk that crossed
 * the bound. `hold` grows with what has arrived, never with what was declared. At most
 * `maxBytes` (plus one chunk) is ever held, once.
 */
export async function readDeliveryBody(source: BodySource, limits: IngestLimits, hold: Hold, check: SignatureCheck): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopWatch = () => {};
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(deliveryTooSlow(limits.bodyTimeoutMs)), limits.bodyTimeoutMs);
    // Every chunk is taken as it comes, so what was read is what arrived.
    stopWatch = watchArrival({ arrived: () => size, owesNothing: () => false }, limits.arrival, () => reject(bodyTooSlow(limits.arrival)));
  });
  late.catch(() => {});
  try {
    for (;;) {
      const chunk = await Promise.race([source.next(), late]);
      if (chunk === null) break;
      size += chunk.byteLength;
      if (size > limits.maxBytes) throw deliveryTooLarge(limits.maxBytes);
      const full = hold.grow(size);
      if (full) throw ingestBusy(full);
      check.update(chunk);
      chunks.push(chunk);
    }
  } catch (e) {
    source.stop();
    throw e;
  } finally {
    clearTimeout(timer);
    stopWatch();
  }
  return Buffer.concat(chunks, size);
}
