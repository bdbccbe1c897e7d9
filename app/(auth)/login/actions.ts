"use server";

import { AuthError } from "next-auth";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { loginRequest } from "@/lib/schemas/users";
import { secondFactorRequest } from "@/lib/schemas/two-factor";
import { SECOND_FACTOR_PREFIX, signIn } from "@/lib/server/auth/next-auth";
import { safeCallbackUrl } from "@/lib/server/auth/callback-url";
import { INVALID_PASSKEY, refusalMessage } from "@/lib/server/auth/credentials";
import { passkeyChallengeFor, ticketFactors } from "@/lib/server/auth/second-step";
import { TICKET_TTL_MS } from "@/lib/server/auth/sign-in-ticket";
import { env } from "@/lib/server/env";

/**
 * `step: "code"`: the password was right and the form now asks for the second factor; `totp`
 * and `passkey` say which the account has (a code field for the one, a passkey button for the other).
 */
export type LoginState = { error?: string; step?: "code"; totp?: boolean; passkey?: boolean };

/**
 * The ticket between the two steps (lib/server/auth/sign-in-ticket.ts): httpOnly, so the page's
 * script never holds it, and only sent back to the sign-in page.
 */
const TICKET_COOKIE = "mail-dashboard.sign-in-ticket";

const field = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : undefined;
};

/**
 * The sign-in form's action (used with useActionState), for both steps: email and password,
 * then — for a user with a second factor — the code (the form sends `code` then). Wrong email,
 * wrong password and a disabled account all answer INVALID_CREDENTIALS; throttling, and too
 * many sign-ins at once in the process, answer with the wait.
 */
export async function login(_prev: LoginState | undefined, formData: FormData): Promise<LoginState> {
  if (formData.has("code") || formData.has("assertion")) return secondStep(formData);
  const parsed = loginRequest.safeParse({
    email: field(formData, "email"),
    password: field(formData, "password"),
    callbackUrl: field(formData, "callbackUrl"),
  });
  if (!parsed.success) return { error: "Enter your email and password." };

  try {
    await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirect: false });
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    const code = codeOf(e);
    if (!code.startsWith(SECOND_FACTOR_PREFIX)) return { error: messageFor(e) };
    const secure = new URL(env().PUBLIC_URL).protocol === "https:";
    const ticket = code.slice(SECOND_FACTOR_PREFIX.length);
    (await cookies()).set(TICKET_COOKIE, ticket, { httpOnly: true, sameSite: "strict", secure, path: "/login", maxAge: TICKET_TTL_MS / 1000 });
    return { step: "code", ...(await ticketFactors(ticket)) };
  }
  // Outside the try: redirect() works by throwing.
  redirect(safeCallbackUrl(parsed.data.callbackUrl, env().publicOrigin));
}

async function secondStep(formData: FormData): Promise<LoginState> {
  const jar = await cookies();
  const ticket = jar.get(TICKET_COOKIE)?.value;
  const assertion = field(formData, "assertion");
  const parsed = secondFactorRequest.safeParse({ ticket, ...(assertion !== undefined ? { assertion } : { code: field(formData, "code") }) });
  if (!parsed.success) {
    if (!ticket) return { error: refusalMessage("expired") };
    return { step: "code", ...(await ticketFactors(ticket)), error: assertion !== undefined ? INVALID_PASSKEY : "Enter the code from your authenticator app, or a recovery code." };
  }
  try {
    // The provider takes strings: the assertion travels as the JSON string the form sent.
    await signIn("second-factor", { ticket: parsed.data.ticket, ...(assertion !== undefined ? { assertion } : { code: parsed.data.code }), redirect: false });
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    if (codeOf(e) === "expired") {
      jar.delete({ name: TICKET_COOKIE, path: "/login" });
      return { error: messageFor(e) };
    }
    const refused = assertion !== undefined && codeOf(e) === "invalid_code" ? INVALID_PASSKEY : messageFor(e);
    return { step: "code", ...(await ticketFactors(parsed.data.ticket)), error: refused };
  }
  jar.delete({ name: TICKET_COOKIE, path: "/login" });
  redirect(safeCallbackUrl(field(formData, "callbackUrl"), env().publicOrigin));
}

/**
 * The passkey challenge for the second step (the sign-in page's "Use a passkey"), for the user
 * the ticket cookie names; null when the ticket ran out or the account has no passkey.
 */
export async function passkeySignInOptions(): Promise<Record<string, unknown> | null> {
  const ticket = (await cookies()).get(TICKET_COOKIE)?.value;
  if (!ticket || ticket.length > 500) return null;
  return (await passkeyChallengeFor(ticket)) as Record<string, unknown> | null;
}

const codeOf = (e: AuthError) => (e.type === "CredentialsSignin" ? ((e as AuthError & { code?: string }).code ?? "") : "");

function messageFor(e: AuthError): string {
  if (e.type !== "CredentialsSignin") return "Sign-in failed. Try again.";
  return refusalMessage(codeOf(e));
}
