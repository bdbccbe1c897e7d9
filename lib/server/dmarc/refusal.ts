import { AppError } from "@/lib/errors";

/**
 * A report refused for what it is (too big, a bomb, not a report): a 422 naming the limit or
 * the field. The job does not try it again; anything else (the service unreachable) is retried.
 */
export function refuse(code: string, message: string): AppError {
  return new AppError(422, code, message);
}
