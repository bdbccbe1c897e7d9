import "server-only";
import { AppError } from "@/lib/errors";

/**
 * One file at a time per user: checking a 100,000-row file takes seconds of (sliced) work and
 * memory in proportion, so a second check, send or import of the same user waits its turn —
 * answered at once with a 429 rather than queued. Per dashboard process, which is where the
 * work happens.
 */
const KEY = Symbol.for("mail-dashboard.file-checks");
type Holder = { [KEY]?: Set<string> };
const running = () => ((globalThis as Holder)[KEY] ??= new Set());

export async function oneFileAtATime<T>(userId: string, work: () => Promise<T>): Promise<T> {
  const set = running();
  if (set.has(userId)) {
    throw new AppError(429, "file_check_in_progress", "Another file of yours is still being checked. Wait for it to finish, then try again.");
  }
  set.add(userId);
  try {
    return await work();
  } finally {
    set.delete(userId);
  }
}
