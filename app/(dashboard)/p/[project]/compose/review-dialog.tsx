"use client";

import { whenOpened } from "@/components/common/lazy-dialog";
import type { ReviewDialogContent } from "./review-dialog-content";

/** The review before sending (./review-dialog-content.tsx): its dialog, preview and checks load when a message is first reviewed. */
export const ReviewDialog = whenOpened<React.ComponentProps<typeof ReviewDialogContent>>(
  () => import("./review-dialog-content").then((m) => m.ReviewDialogContent),
  (props) => props.request !== null,
);
