"use server";

import { AuthError } from "next-auth";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { loginRequest } from "@/lib/schemas/users";
import { secondFactorRequest } from "@/lib/schemas/two-factor";
import { SECOND_FACTOR_PREFIX, signIn } from "@/lib/server/auth/next-auth";
import { safeCallbackUrl } from "@/lib/server/auth/callback-url";
import { refusalMessage } from "@/lib/server/auth/credentials";
import { TICKET_TTL_MS } from "@/lib/server/auth/sign-in-ticket";
import { env } from "@/lib/server/env";

/** `step: "code"`: the password was right and the form now asks for the second factor. */
export type LoginState = { error?: string; step?: "code" };

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
  if (formData.has("code")) return secondStep(formData);
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
    (await cookies()).set(TICKET_COOKIE, code.slice(SECOND_FACTOR_PREFIX.length), { httpOnly: true, sameSite: "strict", secure, path: "/login", maxAge: TICKET_TTL_MS / 1000 });
    return { step: "code" };
  }
  // Outside the try: redirect() works by throwing.
  redirect(safeCallbackUrl(parsed.data.callbackUrl, env().publicOrigin));
}

async function secondStep(formData: FormData): Promise<LoginState> {
  const jar = await cookies();
  const parsed = secondFactorRequest.safeParse({ ticket: jar.get(TICKET_COOKIE)?.value, code: field(formData, "code") });
  if (!parsed.success) {
    if (!jar.get(TICKET_COOKIE)) return { error: refusalMessage("expired") };
    return { step: "code", error: "Enter the code from your authenticator app, or a recovery code." };
  }
  try {
    await signIn("second-factor", { ...parsed.data, redirect: false });
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    if (codeOf(e) === "expired") {
      jar.delete({ name: TICKET_COOKIE, path: "/login" });
      return { error: messageFor(e) };
    }
    return { step: "code", error: messageFor(e) };
  }
  jar.delete({ name: TICKET_COOKIE, path: "/login" });
  redirect(safeCallbackUrl(field(formData, "callbackUrl"), env().publicOrigin));
}

const codeOf = (e: AuthError) => (e.type === "CredentialsSignin" ? ((e as AuthError & { code?: string }).code ?? "") : "");

function messageFor(e: AuthError): string {
  if (e.type !== "CredentialsSignin") return "Sign-in failed. Try again.";
  return refusalMessage(codeOf(e));
}
