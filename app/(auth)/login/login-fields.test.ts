import { describe, expect, it } from "vitest";
import { loginRequest } from "@/lib/schemas/users";
import { LOGIN_MAX_LENGTH, loginFieldErrors, type LoginFields } from "./login-fields";

/** What the schema says about each field, as { field: message }. */
function schemaErrors(values: LoginFields): Record<string, string> {
  const parsed = loginRequest.safeParse(values);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe("the sign-in form's own checks", () => {
  const samples: LoginFields[] = [
    { email: "", password: "" },
    { email: "   ", password: "secret" },
    { email: "ada@example.com", password: "" },
    { email: "ada@example.com", password: " " },
    { email: "not-an-address", password: "x" },
    { email: "ada@example.com", password: "correct horse" },
    { email: "a".repeat(LOGIN_MAX_LENGTH.email), password: "p".repeat(LOGIN_MAX_LENGTH.password) },
  ];

  it.each(samples)("agree with loginRequest on %j", (values) => {
    expect(loginFieldErrors(values)).toEqual(schemaErrors(values));
  });

  it("keep the inputs' limits within what the schema accepts", () => {
    const longest = { email: "a".repeat(LOGIN_MAX_LENGTH.email), password: "p".repeat(LOGIN_MAX_LENGTH.password) };
    expect(loginRequest.safeParse(longest).success).toBe(true);
    expect(loginRequest.safeParse({ ...longest, email: `${longest.email}a` }).success).toBe(false);
    expect(loginRequest.safeParse({ ...longest, password: `${longest.password}p` }).success).toBe(false);
  });
});
