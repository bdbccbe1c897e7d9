"use client";

import { useQuery } from "@tanstack/react-query";
import { ShieldCheckIcon, SmartphoneIcon } from "lucide-react";
import type { TwoFactorStatus } from "@/lib/schemas/two-factor";
import { twoFactorQuery } from "@/lib/queries/two-factor";
import { PageHeader } from "@/components/common/page-header";
import { WarningNote } from "@/components/common/warning-note";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { TotpSetupButton, TotpTurnOffButton } from "./totp-buttons";
import { RecoveryCodesCard } from "./recovery-codes-card";
import { PasskeysCard } from "./passkeys-card";

/** The user's second factors: the authenticator app, the recovery codes that stand in for it, and passkeys. */
export function AccountScreen({ email, initialStatus }: { email: string; initialStatus: TwoFactorStatus }) {
  const { data: status = initialStatus } = useQuery({ ...twoFactorQuery(), initialData: initialStatus });
  return (
    <div className="space-y-6">
      <PageHeader title="Account" description={<>Signed in as <span className="font-medium break-all">{email}</span>. How you prove it is you when you sign in.</>} />
      {status.required && !status.totp && !status.passkeys.length && (
        <WarningNote data-testid="second-factor-required">Your role requires two-factor sign-in. Set up an authenticator app or add a passkey to go on using the dashboard.</WarningNote>
      )}
      <Card>
        <CardHeader>
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">
            <SmartphoneIcon className="size-4" aria-hidden="true" />
            Authenticator app
            {status.available && <Badge variant={status.totp ? "default" : "outline"}>{status.totp ? "On" : "Off"}</Badge>}
          </CardTitle>
          <CardDescription>
            {!status.available
              ? "You sign in through single sign-on: your identity provider asks for the second factor."
              : status.totp
                ? "Sign-in asks for a code from your app after your password, and so does confirming yourself before creating keys and webhooks."
                : "After your password, sign-in will ask for a 6-digit code from an app such as 1Password, Google Authenticator or Authy."}
          </CardDescription>
        </CardHeader>
        {status.available && <CardContent>{status.totp ? <TotpTurnOffButton /> : <TotpSetupButton />}</CardContent>}
      </Card>
      {status.totp && <RecoveryCodesCard left={status.recoveryCodesLeft} />}
      {status.available && <PasskeysCard passkeys={status.passkeys} />}
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <ShieldCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Lost your phone and your recovery codes? An administrator can reset your second factor.
      </p>
    </div>
  );
}
