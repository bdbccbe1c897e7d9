/** What dropDatabase needs of a client (postgres.js's `Sql` has it). */
type Admin = { unsafe: (query: string) => PromiseLike<unknown> };

const ATTEMPTS = 5;
const INSUFFICIENT_PRIVILEGE = "42501";

/**
 * Drops a scratch database (a test file's, a benchmark's) whatever is still connected to it.
 * `WITH (FORCE)` ends the other sessions, but refuses the whole drop (42501) when one of them
 * is an autovacuum worker, which a role that is not a superuser may not signal: a test that
 * wrote many rows can leave one running at that moment (seen in CI). A plain DROP DATABASE
 * cancels autovacuum itself, so that is tried next, and both again after a pause.
 */
export async function dropDatabase(admin: Admin, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== INSUFFICIENT_PRIVILEGE || attempt === ATTEMPTS) throw e;
    }
    try {
      await admin.unsafe(`drop database if exists ${name}`);
      return;
    } catch {
      // Another session came or stayed: FORCE again after a pause.
    }
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}
