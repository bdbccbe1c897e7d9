import { describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/errors";
import { fieldMessage, setServerFieldError } from "@/components/common/form-errors";

describe("server errors at the field", () => {
  it("strips the field prefix", () => {
    expect(fieldMessage("externalId: this project is already registered", "externalId")).toBe("This project is already registered");
    expect(fieldMessage("Name is too long", "name")).toBe("Name is too long");
  });

  it("sets the error on a known field and reports other errors as unhandled", () => {
    const setError = vi.fn();
    const refusal = new AppError(400, "unknown_project", 'externalId: the email service does not accept "x" as a project', "externalId");
    expect(setServerFieldError(refusal, ["externalId", "name"], setError)).toBe(true);
    expect(setError).toHaveBeenCalledWith("externalId", { type: "server", message: 'The email service does not accept "x" as a project' }, { shouldFocus: true });

    expect(setServerFieldError(new AppError(400, "x", "bad", "other"), ["externalId"], setError)).toBe(false);
    expect(setServerFieldError(new AppError(503, "service_unavailable", "down"), ["externalId"], setError)).toBe(false);
    expect(setServerFieldError(new Error("plain"), ["externalId"], setError)).toBe(false);
  });
});
