import "server-only";
import { AppError } from "@/lib/errors";

/**
 * One path segment from an id. Encoded so "/" or "?" stay inside it; "." and ".." are
 * refused because URL resolution would turn them into a different endpoint.
 */
export function seg(id: string): string {
  if (id === "." || id === ".." || id.length === 0) throw new AppError(404, "not_found", "Not found.");
  return encodeURIComponent(id);
}
