"use client";

import { PlusIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./add-domain-dialog-form.tsx). */
export const AddDomainDialog = lazyDialogButton<{ project: string }>(() => import("./add-domain-dialog-form"), {
  label: "Add domain",
  icon: PlusIcon,
  permission: "domains:write",
  deniedReason: "Only admins can add domains.",
});
