import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";
import { textArray } from "@/lib/server/db/arrays";
import { bareAddress } from "@/lib/messages/bare-address";
import { AddressMatcher, type ErasedEntry } from "./address-matcher";
import { openAddress } from "./sealed-address";

/**
 * The one step every writer of the dashboard's records takes before it writes: the project's
 * erased addresses (erased_addresses) are read and taken out of what is about to be written —
 * dropped from recipient lists, replaced by their keyed hash in any other text (subjects,
 * bodies, headers, merge data, event details, contact and batch fields). So nothing written
 * after an erasure brings the address back, whoever writes: a re-read, a late delivery, a
 * look-up, a reply, a batch, another instance on the same database.
 *
 * The race with the erasure itself is closed by a lock per project: a writer holds it shared
 * from before it reads the erased addresses until its transaction ends (redactorsFor), and the
 * erasure takes it exclusively to add an address (holdErasureLock). A writer either finishes
 * before the address is added, and the erasure's scrub that follows finds what it wrote, or
 * reads the address and redacts it. Call redactorsFor inside the transaction that writes.
 */
export type Redactor = {
  /** False when the project has erased nothing: every method answers its input. */
  active: boolean;
  text: (s: string) => string;
  /** The same for an optional field. */
  maybe: <T extends string | null | undefined>(s: T) => T;
  /** Strings anywhere in a JSON value, keys included. */
  json: <T>(value: T) => T;
  /**
   * A recipient list without the erased addresses (`Ann <ann@x.io>` judged by its address);
   * another entry keeps its address (`erase-me@example.com.au` is someone else) and loses an
   * erased one from its display name.
   */
  list: (entries: readonly string[]) => string[];
  /** One address that must stay (a sender): the marker when erased, else as in `list`. */
  one: (entry: string) => string;
  /** The marker of an erased bare address, or null. */
  markerOf: (address: string) => string | null;
};

export const NO_ERASURE: Redactor = {
  active: false,
  text: (s) => s,
  maybe: (s) => s,
  json: (v) => v,
  list: (entries) => [...entries],
  one: (entry) => entry,
  markerOf: () => null,
};

/** Advisory lock class of erasures (two-key form: this, and hashtext of the project id). */
const LOCK_CLASS = 0x45524153; // "ERAS"

function redactorOf(matcher: AddressMatcher): Redactor {
  const json = (v: unknown): unknown => {
    if (typeof v === "string") return matcher.redact(v);
    if (Array.isArray(v)) return v.map(json);
    if (v && typeof v === "object" && !(v instanceof Date)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [matcher.redact(k), json(x)]));
    return v;
  };
  const markerOf = (address: string) => matcher.markerOf(address);
  // `Name <address>`: the name is free text, the address is judged whole.
  const kept = (entry: string) => {
    const angle = entry.lastIndexOf("<");
    return angle > 0 && entry.trimEnd().endsWith(">") ? matcher.redact(entry.slice(0, angle)) + entry.slice(angle) : entry;
  };
  return {
    active: true,
    text: (s) => matcher.redact(s),
    maybe: (s) => (typeof s === "string" ? matcher.redact(s) : s) as typeof s,
    json: <T>(v: T) => json(v) as T,
    list: (entries) => entries.filter((e) => markerOf(bareAddress(e)) === null).map(kept),
    one: (entry) => markerOf(bareAddress(entry)) ?? kept(entry),
    markerOf,
  };
}

// Opened addresses by their sealed form (never changes), and each project's last redactor by its set of hashes.
const opened = new Map<string, string | null>();
const built = new Map<string, { key: string; redactor: Redactor }>();

function open(sealed: string): string | null {
  let address = opened.get(sealed);
  if (address === undefined) {
    if (opened.size >= 10_000) opened.clear();
    opened.set(sealed, (address = openAddress(sealed)));
  }
  return address;
}

/**
 * Holds each project's erasure lock shared until the end of `tx`, then reads its erased
 * addresses: a redactor per project (NO_ERASURE for one that erased nothing).
 */
export async function redactorsFor(tx: Db, projectIds: Iterable<string>): Promise<Map<string, Redactor>> {
  const ids = [...new Set(projectIds)].sort();
  const out = new Map<string, Redactor>(ids.map((id) => [id, NO_ERASURE]));
  if (!ids.length) return out;
  const array = textArray(ids);
  // Two statements on purpose: the read's snapshot must be taken after the lock is held. Sent
  // together, one round trip (the server runs them in this order, as record-event.ts relies on).
  const [, result] = await Promise.all([
    tx.execute(sql`select pg_advisory_xact_lock_shared(${LOCK_CLASS}::int, hashtext(p)) from unnest(${array}::text[]) as p`),
    tx.execute(sql`select project_id, address_hash, sealed from erased_addresses where project_id = any(${array}::text[]) order by project_id, address_hash`),
  ]);
  const rows = rowsOf<ErasedRow & { project_id: string }>(result);
  const byProject = new Map<string, ErasedRow[]>();
  for (const r of rows) {
    const list = byProject.get(r.project_id) ?? [];
    list.push(r);
    byProject.set(r.project_id, list);
  }
  for (const [projectId, list] of byProject) out.set(projectId, redactorOfRows(projectId, list));
  return out;
}

/** One row of erased_addresses, as a statement reads it. */
export type ErasedRow = { address_hash: string; sealed: string };

/**
 * The redactor of one project's erased_addresses rows (ordered by address_hash), read by the
 * caller in a statement of its own — without the lock, so only for a comparison, never to
 * write (the message screen's "did the answer change?", lib/server/message-index/lookup.ts).
 */
export function redactorOfRows(projectId: string, rows: readonly ErasedRow[]): Redactor {
  const entries: ErasedEntry[] = [];
  for (const r of rows) {
    const address = open(r.sealed);
    if (address !== null) entries.push({ address, marker: r.address_hash });
  }
  if (!entries.length) return NO_ERASURE;
  const key = entries.map((e) => e.marker).join(",");
  let cached = built.get(projectId);
  if (cached?.key !== key) built.set(projectId, (cached = { key, redactor: redactorOf(new AddressMatcher(entries)) }));
  return cached.redactor;
}

export async function redactorFor(tx: Db, projectId: string): Promise<Redactor> {
  return (await redactorsFor(tx, [projectId])).get(projectId)!;
}

/**
 * Runs `write` in a transaction with the redactor of the project named by its external id
 * (the audit log's key), or none for an entry of no project.
 */
export async function withProjectRedactor<T>(d: Db, projectExternalId: string | null, write: (tx: Db, r: Redactor) => Promise<T>): Promise<T> {
  if (!projectExternalId) return write(d, NO_ERASURE);
  return d.transaction(async (tx) => {
    const [row] = rowsOf<{ id: string }>(await tx.execute(sql`select id from projects where external_id = ${projectExternalId}`));
    return write(tx, row ? await redactorFor(tx, row.id) : NO_ERASURE);
  });
}

/** The erasure's side: until the end of `tx`, no writer of the project is between reading the erased addresses and committing. */
export async function holdErasureLock(tx: Db, projectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${projectId}))`);
}

/** A redactor for the given addresses alone (the erasure's own scrub of what was written before it). */
export function redactorForAddresses(entries: readonly ErasedEntry[]): Redactor {
  return entries.length ? redactorOf(new AddressMatcher(entries)) : NO_ERASURE;
}
