"use client";

import { PlusIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./create-webhook-dialog-form.tsx). */
export const CreateWebhookDialog = lazyDialogButton<{ project: string }>(() => import("./create-webhook-dialog-form"), { label: "Add webhook", icon: PlusIcon });
