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
 */
export type StreamKeys = { projectId: string; keys: Buffer[]; sealed: string; loadedAt: number };

const MAX_AGE_MS = 60_000;
const REFRESH_MS = 2_000;

// On globalThis: the ingest route and the connect route are separate bundles in one process.
const KEY = Symbol.for("mail-dashboard.stream-keys");
type Cache = Map<string, StreamKeys | null>;
function cache(): Cache {
  const holder = globalThis as { [KEY]?: Cache };
  return (holder[KEY] ??= new Map());
}

async function load(externalId: string): Promise<StreamKeys | null> {
  const [row] = await (await db())
    .select({ projectId: projects.id, sealed: eventStreams.secretCiphertext })
    .from(eventStreams)
    .innerJoin(projects, eq(projects.id, eventStreams.projectId))
    .where(eq(projects.externalId, externalId))
    .limit(1);
  const entry = row ? { projectId: row.projectId, sealed: row.sealed, keys: signingKeys(openSecret(row.sealed)), loadedAt: Date.now() } : null;
  // Unknown projects are not remembered: a stream connected a moment later must work at once.
  if (entry) cache().set(externalId, entry);
  else cache().delete(externalId);
  return entry;
}

export async function streamKeys(externalId: string): Promise<StreamKeys | null> {
  const hit = cache().get(externalId);
  if (hit && Date.now() - hit.loadedAt < MAX_AGE_MS) return hit;
  return load(externalId);
}

/** After a failed verification: the keys as stored now, when they may have changed since loaded. */
export async function refreshedStreamKeys(externalId: string, current: StreamKeys): Promise<StreamKeys | null> {
  if (Date.now() - current.loadedAt < REFRESH_MS) return null;
  const fresh = await load(externalId);
  return fresh && fresh.sealed !== current.sealed ? fresh : null;
}

/** Called when this process connects or reconnects a project's stream. */
export function forgetStreamKeys(externalId?: string): void {
  if (externalId === undefined) cache().clear();
  else cache().delete(externalId);
}
