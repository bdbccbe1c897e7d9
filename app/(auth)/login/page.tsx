import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/server/gate/guard";
import { safeCallbackUrl } from "@/lib/server/auth/callback-url";
import { env } from "@/lib/server/env";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Only same-site paths are followed after sign-in; the action checks again on the server. */
function localPath(value: string | undefined): string | undefined {
  const safe = safeCallbackUrl(value, env().publicOrigin);
  return safe === "/" ? undefined : safe;
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = localPath(first(params.callbackUrl));
  if (await currentUser()) redirect(callbackUrl ?? "/");
  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <h1 className="text-xl font-semibold tracking-tight">Sign in</h1>
        <CardDescription>Use the email and password your administrator gave you.</CardDescription>
      </CardHeader>
      <CardContent>
        <LoginForm callbackUrl={callbackUrl} />
      </CardContent>
    </Card>
  );
}
