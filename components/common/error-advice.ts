import { isAppError } from "@/lib/errors";

/** What went wrong in words a user can act on, from whatever was thrown. */
export function describeError(error: unknown): { message: string; advice: string; correlationId?: string; code?: string } {
  if (isAppError(error)) {
    return { message: error.message, advice: adviceFor(error.code, error.status), correlationId: error.correlationId, code: error.code };
  }
  if (error instanceof Error && (error as Error & { digest?: string }).digest) {
    // A server component failed; Next hides its message in production and gives a digest.
    return {
      message: "The page could not be loaded.",
      advice: "Try again. If it keeps failing, give this reference to your administrator.",
      correlationId: (error as Error & { digest?: string }).digest,
    };
  }
  return { message: "Something went wrong.", advice: "Try again. If it keeps failing, reload the page." };
}

export function adviceFor(code: string, status: number): string {
  switch (code) {
    case "network_error":
      return "Check your connection, then try again.";
    case "service_unavailable":
    case "service_timeout":
    case "bad_gateway":
      return "The email service is not answering. The rest of the dashboard still works; try again in a minute.";
    case "rate_limited":
      return "Too many requests in a short time. Wait a moment, then try again.";
    case "forbidden":
      return "Your role does not allow this. Ask an administrator if you need access.";
    case "not_found":
      return "It may have been removed, or the link is wrong. Check the address.";
    case "unauthorized":
      return "Your session has ended. Sign in again.";
  }
  if (status >= 500) return "Try again. If it keeps failing, give the reference below to your administrator.";
  return "Check what you entered, then try again.";
}
