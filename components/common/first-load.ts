import { isAppError, toPlain, type PlainAppError } from "@/lib/errors";

/**
 * A page's first data, or why it could not be read (rule 3): the page awaits `firstLoad(work)` and
 * hands the result to its screen, which shows the data or its error state with the reason and a
 * retry (`useFirstLoadQuery`, or `error` on a server-rendered list) — never a blank screen, never a
 * second request just to learn the same failure. Anything but an AppError is a bug and goes to
 * the error boundary.
 */
export type FirstLoad<T> = { data: T; error: null } | { data: undefined; error: PlainAppError };

export async function firstLoad<T>(work: Promise<T>): Promise<FirstLoad<T>> {
  try {
    return { data: await work, error: null };
  } catch (e) {
    if (!isAppError(e)) throw e;
    return { data: undefined, error: toPlain(e) };
  }
}

/**
 * A part the screen can do without on its first load (a preview, a check handed over unawaited):
 * null when it failed, and the screen asks for it itself and shows why. The one deliberate
 * tolerance a page shell may have; spelled out so it is never mistaken for a swallowed error.
 */
export function optionalPart<T>(work: Promise<T>): Promise<T | null> {
  return work.catch(() => null);
}
