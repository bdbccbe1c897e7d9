import { describe, expect, it } from "vitest";
import { afterResponse, holdingAfterResponse, settleAfterResponses } from "./after-response";

describe("holdingAfterResponse", () => {
  it("holds the work scheduled inside until released, and starts later work at once", async () => {
    const ran: string[] = [];
    const { result, release } = await holdingAfterResponse(async () => {
      afterResponse("first", async () => void ran.push("first"));
      await new Promise((resolve) => setTimeout(resolve, 5));
      afterResponse("second", async () => void ran.push("second"));
      return "answer";
    });
    expect(result).toBe("answer");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran).toEqual([]);
    release();
    await settleAfterResponses();
    expect(ran).toEqual(["first", "second"]);
  });

  it("outside a hold, the work starts now (no request: scripts and tests)", async () => {
    const ran: string[] = [];
    afterResponse("now", async () => void ran.push("now"));
    await settleAfterResponses();
    expect(ran).toEqual(["now"]);
  });
});
