import { z } from "zod";
import { jsonObject, page } from "./common";
import { previewRequest, template } from "./templates";
import { sendEmailResponse } from "./emails";

/** A named set of merge data saved for a template ("long name", "no optional fields"). */
export const sampleRequest = z.object({
  name: z.string({ error: "is required" }).trim().min(1, { error: "is required" }).max(100, { error: "must be at most 100 characters" }),
  data: jsonObject,
});
export type SampleRequest = z.infer<typeof sampleRequest>;

export const templateSample = z.object({ id: z.string(), name: z.string(), data: jsonObject, createdBy: z.string(), updatedAt: z.string() });
export type TemplateSample = z.infer<typeof templateSample>;
export const sampleList = z.object({ data: z.array(templateSample) });

/** Render a stored template with merge data (compose's review). */
export const renderRequest = z.object({ data: jsonObject.default({}) });

/**
 * "Send test to me": the draft as the screen shows it (the preview request's fields) — the
 * recipient is always the signed-in user, never a field.
 */
export const testSendRequest = previewRequest;
export const testSendResponse = sendEmailResponse;

/** The templates list of our API (GET /api/p/[project]/templates). */
export const templateList = page(template);
