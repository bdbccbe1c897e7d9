"use server";

import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { loginRequest } from "@/lib/schemas/users";
import { signIn } from "@/lib/server/auth/next-auth";
import { safeCallbackUrl } from "@/lib/server/auth/callback-url";
import { refusalMessage } from "@/lib/server/auth/credentials";
import { env } from "@/lib/server/env";

export type LoginState = { error?: string };

const field = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : undefined;
};

/**
 * The sign-in form's action (used with useActionState). Wrong email, wrong password and a
 * disabled account all answer INVALID_CREDENTIALS; throttling, and too many sign-ins at once
 * in the process, answer with the wait.
 */
export async function login(_prev: LoginState | undefined, formData: FormData): Promise<LoginState> {
  const parsed = loginRequest.safeParse({
    email: field(formData, "email"),
    password: field(formData, "password"),
    callbackUrl: field(formData, "callbackUrl"),
  });
  if (!parsed.success) return { error: "Enter your email and password." };

  try {
    await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirect: false });
  } catch (e) {
    if (e instanceof AuthError) return { error: messageFor(e) };
    throw e;
  }
  // Outside the try: redirect() works by throwing.
  redirect(safeCallbackUrl(parsed.data.callbackUrl, env().publicOrigin));
}

function messageFor(e: AuthError): string {
  if (e.type !== "CredentialsSignin") return "Sign-in failed. Try again.";
  return refusalMessage((e as AuthError & { code?: string }).code ?? "");
}
