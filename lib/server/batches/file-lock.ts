import "server-only";
import { busyError, oneAtATime } from "@/lib/server/limits/one-at-a-time";

/**
 * One file at a time per user: checking a 100,000-row file takes seconds of (sliced) work and
 * memory in proportion, so a second check, send or import of the same user waits its turn —
 * answered at once with a 429 rather than queued.
 */
export const oneFileAtATime = oneAtATime("file-checks", () =>
  busyError("file_check_in_progress", "Another file of yours is still being checked. Wait for it to finish, then try again.", 5),
);
