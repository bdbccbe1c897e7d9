import type { Db } from "../db/client";
import { accounts, apiKeys, projects } from "../db/schema";
import { sha256 } from "./crypto";
import { newId, randomSecret } from "./ids";

type Writer = Pick<Db, "insert">;

export async function createAccount(db: Writer, name: string) {
  const [row] = await db.insert(accounts).values({ id: newId("acct"), name }).returning();
  return row;
}

export async function createProject(db: Writer, accountId: string, externalId: string, name = externalId) {
  const [row] = await db.insert(projects).values({ id: newId("proj"), accountId, externalId, name }).returning();
  return row;
}

/**
 * Creates a key and returns its secret, the only time it exists in clear: only the
 * SHA-256 and a short readable prefix are stored.
 */
export async function createApiKey(
  db: Writer,
  input: { accountId: string; projectId: string | null; name: string; scopes?: string[] },
) {
  const secret = randomSecret("sk_", 24);
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId("key"),
      accountId: input.accountId,
      projectId: input.projectId,
      name: input.name,
      prefix: secret.slice(0, 10),
      hash: sha256(secret),
      scopes: input.scopes?.length ? input.scopes : ["full_access"],
    })
    .returning();
  return { key: row, secret };
}
