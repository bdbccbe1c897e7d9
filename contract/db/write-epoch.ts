/**
 * A number that moves whenever a PGlite database of this process may have changed, so a value
 * read from it can be kept while the number stands still (the dashboard guard's session row,
 * lib/server/gate/access.ts; a background poller's "nothing is due", ./due-gate.ts). PGlite
 * admits one process per data directory, so every write to it passes through its engine here,
 * whoever wrote it: the program's own code, a trigger's cascade (run inside a written
 * statement), a migration. A shared Postgres has writers in other processes and is never
 * watched: there, nothing may be kept on the strength of this. One count for every PGlite of
 * the process (the in-process tests open several): a write to any moves it, which only costs
 * a spare read.
 *
 * Counted where PGlite hands each exchange to its engine (`execProtocolRawSync`, which its
 * query, exec, transaction and raw-protocol paths all end in): an exchange that parses or runs a statement that is
 * not a plain read marks a write under way; while one is, the number moves before and after
 * every exchange, until the exchange holding its Sync (or its simple query) is done. A
 * transaction's COMMIT and ROLLBACK are statements too, and count. Unsure means a write:
 * a spare move only costs the next reader a query.
 */
type State = { epoch: number };
const KEY = Symbol.for("mail-dashboard.db-write-epoch");

// On globalThis: Next bundles routes separately, and all of them must see the one count.
function state(): State {
  const holder = globalThis as { [KEY]?: State };
  return (holder[KEY] ??= { epoch: 0 });
}

/** The current count; a value read while it stayed the same is still what the database holds. */
export function writeEpoch(): number {
  return state().epoch;
}

// A plain read: one statement (nothing after a `;`), starting with SELECT or SHOW, naming no
// writing command anywhere (a CTE that writes, SELECT ... FOR UPDATE, SELECT ... INTO, the
// sequence and setting functions). Column names such as updated_at do not match the words.
// A SELECT of a function that writes would pass: the dashboard defines none but triggers
// (write-epoch.test.ts reads the migrations to keep it so).
const READ_START = /^\s*(?:select|show)\b/i;
const WRITE_WORD = /\b(?:insert|update|delete|truncate|merge|copy|lock|into|nextval|setval|set_config)\b/i;
const SECOND_STATEMENT = /;\s*\S/;

const QUERY = 0x51; // 'Q': a simple query
const PARSE = 0x50; // 'P': a statement of the extended protocol
const SYNC = 0x53; // 'S': the end of an extended-protocol exchange
const BIND = 0x42; // 'B': binds a statement parsed earlier, by its name ("" is the unnamed one)
const FUNCTION_CALL = 0x46; // 'F': runs a function by its id, no SQL to read

function cString(bytes: Uint8Array, from: number, end: number): { text: string; next: number } {
  let zero = from;
  while (zero < end && bytes[zero] !== 0) zero++;
  return { text: Buffer.from(bytes.buffer, bytes.byteOffset + from, zero - from).toString("utf8"), next: zero + 1 };
}

/** What a frontend message batch holds: whether it writes, and whether it ends a statement. */
export function scanMessages(bytes: Uint8Array): { writes: boolean; ends: boolean } {
  let writes = false;
  let ends = false;
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = bytes[at];
    const length = ((bytes[at + 1] << 24) | (bytes[at + 2] << 16) | (bytes[at + 3] << 8) | bytes[at + 4]) >>> 0;
    const end = Math.min(bytes.length, at + 1 + length);
    if (type === QUERY || type === PARSE) {
      const sql = type === QUERY ? cString(bytes, at + 5, end).text : cString(bytes, cString(bytes, at + 5, end).next, end).text;
      if (!READ_START.test(sql) || WRITE_WORD.test(sql) || SECOND_STATEMENT.test(sql)) writes = true;
    } else if (type === BIND) {
      // A named statement was parsed in an earlier exchange, unseen here: it may write.
      const statement = cString(bytes, cString(bytes, at + 5, end).next, end).text;
      if (statement !== "") writes = true;
    } else if (type === FUNCTION_CALL) {
      writes = true;
    }
    // The exchange ends a statement when its last message is a Sync or a simple query.
    ends = type === QUERY || type === SYNC;
    if (length < 4) break;
    at += 1 + length;
  }
  return { writes, ends };
}

type Engine = { execProtocolRawSync: (message: Uint8Array) => unknown };

/** Counts the writes reaching a PGlite instance's engine (lib/server/db/pglite.ts, service/db/client.ts). Once per instance. */
export function watchWrites(pg: object): void {
  const engine = pg as Engine & { [KEY]?: true };
  if (engine[KEY]) return;
  engine[KEY] = true;
  const exchange = engine.execProtocolRawSync.bind(pg);
  let writing = false;
  engine.execProtocolRawSync = (message) => {
    const { writes, ends } = message instanceof Uint8Array ? scanMessages(message) : { writes: true, ends: true };
    if (writes) writing = true;
    if (!writing) return exchange(message);
    const s = state();
    s.epoch++;
    try {
      return exchange(message);
    } finally {
      s.epoch++;
      if (ends) writing = false;
    }
  };
}
