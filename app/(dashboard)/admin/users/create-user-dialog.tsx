"use client";

import { UserPlusIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";
import type { ProjectOption } from "./project-access-fields";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./create-user-dialog-form.tsx). */
export const CreateUserDialog = lazyDialogButton<{ projects: ProjectOption[] }>(() => import("./create-user-dialog-form"), { label: "Create user", icon: UserPlusIcon });
