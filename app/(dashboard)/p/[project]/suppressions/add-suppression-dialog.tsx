"use client";

import { PlusIcon } from "lucide-react";
import { lazyDialogButton } from "@/components/common/lazy-dialog-button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./add-suppression-dialog-form.tsx). */
export const AddSuppressionDialog = lazyDialogButton<{ project: string }>(() => import("./add-suppression-dialog-form"), {
  label: "Add suppression",
  icon: PlusIcon,
  permission: "suppressions:write",
  deniedReason: "Only support staff and admins can add suppressions.",
});
