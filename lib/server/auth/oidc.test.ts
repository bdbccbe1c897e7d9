import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit, SYSTEM_ACTOR } from "../audit";
import { useTestDb } from "../db/test-db";
import { setTestEnv } from "../test-helpers";
import { createUser, updateUser } from "../users";
import { oidcProvider, oidcUserId } from "./oidc";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;
let adaId: string;

beforeAll(async () => {
  setTestEnv({ OIDC_ISSUER: "https://id.example.com", OIDC_CLIENT_ID: "dash", OIDC_CLIENT_SECRET: "s3cret" });
  ({ dispose } = await useTestDb());
  adaId = (await createUser(createUserRequest.parse({ email: "ada@example.com", role: "support" }), SYSTEM_ACTOR)).user.id;
  const { user } = await createUser(createUserRequest.parse({ email: "off@example.com", role: "support" }), SYSTEM_ACTOR);
  await updateUser(user.id, { active: false }, SYSTEM_ACTOR);
});
afterAll(() => dispose());

describe("single sign-on", () => {
  it("is configured from the OIDC_* variables", () => {
    expect(oidcProvider()).toMatchObject({ id: "oidc", type: "oidc", issuer: "https://id.example.com", clientId: "dash" });
  });

  it("admits only existing, active users by a verified email", async () => {
    expect(await oidcUserId({ email: "ADA@example.com", email_verified: true }, { record: false })).toBe(adaId);
    expect(await oidcUserId({ email: "stranger@example.com", email_verified: true }, { record: false })).toBeNull();
    expect(await oidcUserId({ email: "off@example.com", email_verified: true }, { record: false })).toBeNull();
    expect(await oidcUserId(undefined, { record: false })).toBeNull();
  });

  it.each([
    ["false", { email_verified: false }],
    ["absent", {}],
    ["the string 'true'", { email_verified: "true" }],
    ["1", { email_verified: 1 }],
    ["null", { email_verified: null }],
  ])("refuses an identity whose email_verified is %s", async (_label, claim) => {
    expect(await oidcUserId({ email: "ada@example.com", ...claim }, { record: false })).toBeNull();
  });

  it("records the sign-in once, when asked to", async () => {
    await oidcUserId({ email: "ada@example.com", email_verified: true }, { record: true });
    const { data } = await listAudit(auditQuery.parse({ action: "auth.sign_in" }));
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ actorId: adaId, detail: { method: "oidc" } });
  });

  it("is absent without the variables", () => {
    setTestEnv({ OIDC_ISSUER: undefined, OIDC_CLIENT_ID: undefined, OIDC_CLIENT_SECRET: undefined });
    expect(oidcProvider()).toBeNull();
  });
});
