"use client";

import { PlusIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./create-key-dialog-form.tsx). */
export const CreateKeyDialog = lazyDialogButton<{ project: string; projectName: string }>(() => import("./create-key-dialog-form"), { label: "Create API key", icon: PlusIcon });
