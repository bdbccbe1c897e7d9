import { randomBytes } from "node:crypto";
import { dropDatabase } from "../../contract/db/drop-database";

/**
 * A new, empty database on the Postgres server at `serverUrl` (named `<prefix>_<random>`), for
 * one benchmark run: its URL, and `close` to drop it (unless `keep`) and end the connection.
 */
export async function scratchPostgresDatabase(serverUrl: string, prefix: string): Promise<{ name: string; url: string; close: (keep?: boolean) => Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    close: async (keep = false) => {
      if (!keep) await dropDatabase(admin, name);
      await admin.end({ timeout: 5 });
    },
  };
}
