import { describe, expect, it } from "vitest";
import { fieldMessageText } from "@/components/ui/field-message";

describe("fieldMessageText", () => {
  it("turns schema fragments into sentences", () => {
    expect(fieldMessageText("is required")).toBe("This field is required.");
    expect(fieldMessageText("must be an email address like name@example.com")).toBe("This field must be an email address like name@example.com.");
    expect(fieldMessageText("The email service does not accept it")).toBe("The email service does not accept it");
    expect(fieldMessageText("already registered")).toBe("Already registered");
    expect(fieldMessageText("")).toBe("");
  });
});
