"use client";

import { SmartphoneIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";

/** Which roles must use two-factor sign-in; the form loads on first use (./two-factor-policy-dialog-form.tsx). */
export const TwoFactorPolicyDialog = lazyDialogButton<object>(() => import("./two-factor-policy-dialog-form"), { label: "Two-factor rules", icon: SmartphoneIcon });
