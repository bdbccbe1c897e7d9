"use client";

import { QrCodeIcon, ShieldOffIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";

/** The forms and their libraries load when a button is first used (./totp-setup-dialog-form.tsx, ./totp-off-dialog-form.tsx). */
export const TotpSetupButton = lazyDialogButton<object>(() => import("./totp-setup-dialog-form"), { label: "Set up authenticator app", icon: QrCodeIcon });
export const TotpTurnOffButton = lazyDialogButton<object>(() => import("./totp-off-dialog-form"), { label: "Turn off…", icon: ShieldOffIcon });
