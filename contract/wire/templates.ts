import { z } from "zod";
import { jsonObject } from "./common";

export const template = z.object({
  id: z.string(),
  slug: z.string().nullable().optional().default(null),
  name: z.string(),
  subject: z.string(),
  html: z.string().nullable().optional().default(null),
  text: z.string().nullable().optional().default(null),
  createdAt: z.string(),
  /** Local-service extra: the merge variables the template uses (`items[].name` inside a list section). */
  variables: z.array(z.string()).optional(),
});
export type Template = z.infer<typeof template>;

export const previewRequest = z.object({
  subject: z.string().optional(),
  html: z.string().optional(),
  text: z.string().optional(),
  data: jsonObject.optional(),
});
export type PreviewRequest = z.infer<typeof previewRequest>;

/** The interface leaves the rendered draft's shape open; the local service answers this. */
export const previewResponse = z.object({
  subject: z.string().nullable(),
  html: z.string().nullable(),
  text: z.string().nullable(),
  variables: z.array(z.string()).optional().default([]),
  missing: z.array(z.string()).optional().default([]),
});
export type PreviewResponse = z.infer<typeof previewResponse>;
