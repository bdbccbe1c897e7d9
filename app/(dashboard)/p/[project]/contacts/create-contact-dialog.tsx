"use client";

import { UserPlusIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./create-contact-dialog-form.tsx). */
export const CreateContactDialog = lazyDialogButton<{ project: string }>(() => import("./create-contact-dialog-form"), { label: "Create contact", icon: UserPlusIcon });
