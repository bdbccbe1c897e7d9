import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * An erasure holds only if every writer of the records that can name an address takes the
 * project's erasures into account (lib/server/redaction/redactor.ts). A new writer that does
 * not is caught here: each file of the server that inserts into or updates one of those
 * tables imports the redactor (or the message rows' redaction built on it), or is listed below
 * with why what it writes cannot name an address.
 */
const root = path.resolve(__dirname, "../../..");
const TABLES = {
  indexedMessages: "indexed_messages",
  indexedEvents: "indexed_events",
  indexedRecipients: "indexed_recipients",
  contactsIndex: "contacts_index",
  batchRows: "batch_rows",
  batchJobs: "batch_jobs",
  templateSamples: "template_samples",
  webhookDeliveries: "webhook_deliveries",
  savedViews: "saved_views",
  auditLog: "audit_log",
};
const WRITES = new RegExp(
  [
    `\\.(?:insert|update)\\((?:${Object.keys(TABLES).join("|")})\\)`,
    `\\b(?:insert\\s+into|update)\\s+(?:${Object.values(TABLES).join("|")})\\b`,
  ].join("|"),
  "i",
);
const REDACTS = /from "[@./\w-]*(?:redaction\/redactor|message-index\/redacted|\.\/redactor|\.\/redacted)"/;

/** Writers that write no text an address could be in. */
const EXEMPT: Record<string, string> = {
  "lib/server/retention/erase-messages.ts": "the erasure itself: removes the address from lists, recipient rows and events",
  "lib/server/message-index/reread-queue.ts": "sets checked_at only",
  "lib/server/batches/jobs.ts": "retry: sets rows' status back to pending and clears their error, and the job's round and status",
  "lib/server/batches/sweeper.ts": "sets a finished job's status and times",
  // The statements of record-event.ts, which hands them only what it has redacted; the test
  // below holds that nothing else imports them.
  "lib/server/message-index/event-rows.ts": "statements only, fed by record-event.ts with redacted events",
  "lib/server/message-index/message-rows.ts": "statements only, fed by record-event.ts with redacted pictures",
};

/** Statement files that only a guarded writer may import. */
const STATEMENTS_OF: Record<string, string> = {
  "lib/server/message-index/event-rows.ts": "lib/server/message-index/record-event.ts",
  "lib/server/message-index/message-rows.ts": "lib/server/message-index/record-event.ts",
};

function serverFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...serverFiles(rel));
    else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

describe("writers of records that can name an address", () => {
  it("all go through the project's erasures", () => {
    const writers = [...serverFiles("lib/server"), ...serverFiles("app")].filter((f) => WRITES.test(readFileSync(path.join(root, f), "utf8")));
    // The check finds the writers it is about (a pattern gone stale would pass everything).
    expect(writers).toEqual(expect.arrayContaining(["lib/server/message-index/lookup.ts", "lib/server/message-index/event-rows.ts", "lib/server/message-index/message-rows.ts", "lib/server/audit.ts", "lib/server/batches/store.ts"]));
    const unguarded = writers.filter((f) => !(f in EXEMPT) && !REDACTS.test(readFileSync(path.join(root, f), "utf8")));
    expect(unguarded).toEqual([]);
    for (const f of Object.keys(EXEMPT)) expect(writers).toContain(f);
  });

  it("statement files are imported only by the guarded writer they belong to", () => {
    const sources = [...serverFiles("lib"), ...serverFiles("app")];
    for (const [statements, owner] of Object.entries(STATEMENTS_OF)) {
      const name = path.posix.basename(statements, ".ts");
      const importers = sources.filter((f) => f !== statements && new RegExp(`from "[@./\\w/-]*/${name}"`).test(readFileSync(path.join(root, f), "utf8")));
      expect(importers, statements).toEqual([owner]);
      expect(REDACTS.test(readFileSync(path.join(root, owner), "utf8")) || readFileSync(path.join(root, owner), "utf8").includes("./event-redaction"), owner).toBe(true);
    }
  });
});
