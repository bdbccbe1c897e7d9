/**
 * The sign-in form's checks as you type: the ones `loginRequest` (lib/schemas/users.ts)
 * makes, in its words, so the sign-in page need not ship zod and a form library for two
 * fields. login-fields.test.ts holds the two together; the server action still parses with
 * the schema. The inputs' maxLength keeps the schema's length limits out of reach.
 */
export type LoginFields = { email: string; password: string };
export type LoginFieldErrors = Partial<Record<keyof LoginFields, string>>;

export const LOGIN_MAX_LENGTH = { email: 254, password: 1000 } as const;

export function loginFieldErrors(values: LoginFields): LoginFieldErrors {
  const errors: LoginFieldErrors = {};
  if (!values.email.trim()) errors.email = "is required";
  if (!values.password) errors.password = "is required";
  return errors;
}
