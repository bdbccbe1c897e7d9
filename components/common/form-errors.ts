import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { isAppError } from "@/lib/errors";

/**
 * Server messages often start with the field they are about ("externalId: is already
 * registered"); at the field itself that prefix is noise.
 */
export function fieldMessage(message: string, param: string): string {
  const prefix = `${param}: `;
  const text = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return text ? text[0].toUpperCase() + text.slice(1) : message;
}

/**
 * Puts a refusal from the server at the field it names, when that field is on the form.
 * Returns false when no field owns it, so the caller shows it for the whole form instead.
 */
export function setServerFieldError<T extends FieldValues>(error: unknown, fields: readonly Path<T>[], setError: UseFormSetError<T>): boolean {
  if (!isAppError(error) || !error.param) return false;
  const param = error.param as Path<T>;
  if (!fields.includes(param)) return false;
  setError(param, { type: "server", message: fieldMessage(error.message, error.param) }, { shouldFocus: true });
  return true;
}
