"use client";

import { whenOpened } from "@/components/common/lazy-dialog";
import type { SecretRevealDialogContent } from "@/components/secret-reveal/secret-reveal-dialog-content";

/** Shows a secret once (./secret-reveal-dialog-content.tsx); its code loads when there is a secret to show. */
export const SecretRevealDialog = whenOpened<React.ComponentProps<typeof SecretRevealDialogContent>>(
  () => import("@/components/secret-reveal/secret-reveal-dialog-content").then((m) => m.SecretRevealDialogContent),
  (props) => props.secret !== null,
);
