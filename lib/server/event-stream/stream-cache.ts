import "server-only";
import { eq } from "drizzle-orm";
import { db } from "@/lib/server/db";
import { projects } from "@/lib/server/db/schema/core";
import { eventStreams } from "@/lib/server/db/schema/messages";
import { openSecret } from "./secret-box";
import { signingKeys } from "./verify";

/**
 * The ingest's view of a project's stream: its id and the signing keys, opened once and kept,
 * so a delivery costs no query and no decryption. Dropped when this process (re)connects the
 * stream; another instance's reconnect is noticed when a signature fails to verify with the
 * cached keys (read again, at most once per REFRESH_MS) or after MAX_AGE_MS.
 *
 * Names without a stream are answered from the list of the names that have one, read at most
 * once per REFRESH_MS: anyone can post to /api/ingest/<anything>, and a stranger's made-up
 * names must not cost a query each. A stream another instance connects is therefore found
 * within REFRESH_MS (the service retries a refused delivery); one this process connects, at once.
 *
 * A project's keys are read by one query at a time: deliveries that need them meanwhile (a
 * flood of posts that fail to verify, hundreds at once) wait for that one read, so a stranger
 * costs at most one query and decryption per project per REFRESH_MS.
 */
export type StreamKeys = { projectId: string; keys: Buffer[]; sealed: string; loadedAt: number };

const MAX_AGE_MS = 60_000;
const REFRESH_MS = 2_000;

// On globalThis: the ingest route and the connect route are separate bundles in one process.
const KEY = Symbol.for("mail-dashboard.stream-keys");
type Cache = {
  entries: Map<string, StreamKeys>;
  /** The read of a project's keys under way, which every delivery that needs them waits for. */
  loading: Map<string, Promise<StreamKeys | null>>;
  streamed: Set<string>;
  streamedAt: number;
  reading: Promise<void> | null;
};
function cache(): Cache {
  const holder = globalThis as { [KEY]?: Cache };
  return (holder[KEY] ??= { entries: new Map(), loading: new Map(), streamed: new Set(), streamedAt: -Infinity, reading: null });
}

/**
 * The keys as stored now, read once for everybody who asks meanwhile. A read that
 * forgetStreamKeys overtook (this process reconnected the stream while it ran) is not kept.
 */
function load(externalId: string): Promise<StreamKeys | null> {
  const c = cache();
  const under = c.loading.get(externalId);
  if (under) return under;
  const current = () => c.loading.get(externalId) === pending;
  const pending: Promise<StreamKeys | null> = read(externalId)
    .then((entry) => {
      if (current() && entry) c.entries.set(externalId, entry);
      else if (current()) c.entries.delete(externalId);
      return entry;
    })
    .finally(() => {
      if (current()) c.loading.delete(externalId);
    });
  c.loading.set(externalId, pending);
  return pending;
}

async function read(externalId: string): Promise<StreamKeys | null> {
  const [row] = await (await db())
    .select({ projectId: projects.id, sealed: eventStreams.secretCiphertext })
    .from(eventStreams)
    .innerJoin(projects, eq(projects.id, eventStreams.projectId))
    .where(eq(projects.externalId, externalId))
    .limit(1);
  return row ? { projectId: row.projectId, sealed: row.sealed, keys: signingKeys(openSecret(row.sealed)), loadedAt: Date.now() } : null;
}

/** Whether the project may have a stream: false only when a list read within REFRESH_MS says it has none. */
async function mayHaveStream(externalId: string): Promise<boolean> {
  const c = cache();
  if (c.streamed.has(externalId)) return true;
  // Requests that arrive while the list is read wait for it, rather than trusting the old one.
  if (Date.now() - c.streamedAt >= REFRESH_MS) {
    c.streamedAt = Date.now();
    c.reading = (async () => {
      const rows = await (await db()).select({ externalId: projects.externalId }).from(eventStreams).innerJoin(projects, eq(projects.id, eventStreams.projectId));
      c.streamed = new Set(rows.map((r) => r.externalId));
    })()
      .catch((e: unknown) => {
        c.streamedAt = -Infinity;
        throw e;
      })
      .finally(() => (c.reading = null));
  }
  await c.reading;
  return c.streamed.has(externalId);
}

export async function streamKeys(externalId: string): Promise<StreamKeys | null> {
  const hit = cache().entries.get(externalId);
  if (hit && Date.now() - hit.loadedAt < MAX_AGE_MS) return hit;
  if (!hit && !(await mayHaveStream(externalId))) return null;
  return load(externalId);
}

/**
 * Whether this process has seen `externalId` as a project with a stream (its keys kept, or in
 * the list of names that have one), without a query: the delivery log notes a refusal made
 * before the lookup only for such a name (./delivery-log-refusals.ts).
 */
export function seenStream(externalId: string): boolean {
  const c = cache();
  return c.entries.has(externalId) || c.streamed.has(externalId);
}

/** After a failed verification: the keys as stored now, when they may have changed since loaded. */
export async function refreshedStreamKeys(externalId: string, current: StreamKeys): Promise<StreamKeys | null> {
  // Keys read since `current` (by another delivery's refresh) are as good as reading them again.
  const latest = cache().entries.get(externalId);
  const since = latest && latest.loadedAt > current.loadedAt ? latest : current;
  const fresh = Date.now() - since.loadedAt < REFRESH_MS ? since : await load(externalId);
  return fresh && fresh.sealed !== current.sealed ? fresh : null;
}

/** Called when this process connects or reconnects a project's stream. */
export function forgetStreamKeys(externalId?: string): void {
  const c = cache();
  if (externalId === undefined) {
    c.entries.clear();
    c.loading.clear();
  } else {
    c.entries.delete(externalId);
    c.loading.delete(externalId);
  }
  c.streamedAt = -Infinity;
}
