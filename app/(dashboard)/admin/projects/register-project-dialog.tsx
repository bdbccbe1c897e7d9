"use client";

import { PlusIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./register-project-dialog-form.tsx). */
export const RegisterProjectDialog = lazyDialogButton<object>(() => import("./register-project-dialog-form"), { label: "Register project", icon: PlusIcon });
