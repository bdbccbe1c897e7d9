"use client";

import { whenOpened } from "@/components/common/lazy-dialog";
import type { SecretRevealContent } from "@/components/common/secret-reveal-content";

/**
 * Shows a secret once (./secret-reveal-content.tsx): API keys, webhook and alert signing
 * secrets, generated passwords. `secret: null` keeps it closed; its code loads when there is a
 * secret to show.
 */
export const SecretReveal = whenOpened<React.ComponentProps<typeof SecretRevealContent>>(
  () => import("@/components/common/secret-reveal-content").then((m) => m.SecretRevealContent),
  (props) => props.secret !== null,
);
