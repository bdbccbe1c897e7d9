import { z } from "zod";
import { messageListQuery } from "./messages-index";

/**
 * Saved views of the Messages screen (issue 28): a named search, private or shared with the
 * project. Bounds checked before any work (README, "Limits"): the name, the views per user
 * and project, and the search itself by the search's own limits (its `q`).
 */
export const SAVED_VIEW_LIMITS = { nameMaxLength: 100, perUserAndProject: 100, listed: 1000 } as const;

/** The URL parameters a view keeps, in the order its stored text lists them. Never a cursor: a view is a search, not a page. */
export const SAVED_VIEW_PARAMS = ["q", "status", "direction", "tag", "from", "to"] as const;

/** The search a view keeps: the Messages URL's own fields, each with the list route's bounds. */
export const savedViewState = messageListQuery.pick({ q: true, status: true, direction: true, tag: true, from: true, to: true });
export type SavedViewState = z.output<typeof savedViewState>;

const viewName = z
  .string({ error: "is required" })
  .trim()
  .min(1, { error: "is required" })
  .max(SAVED_VIEW_LIMITS.nameMaxLength, { error: `must be at most ${SAVED_VIEW_LIMITS.nameMaxLength} characters` })
  .regex(/^[^\u0000-\u001f\u007f]*$/, { error: "must not contain control characters" });

/** POST /api/p/[project]/views: "Save current search…". */
export const createSavedViewRequest = z.object({
  name: viewName,
  shared: z.boolean({ error: "must be true or false" }).default(false),
  state: savedViewState,
});
export type CreateSavedViewRequest = z.output<typeof createSavedViewRequest>;

/** PATCH /api/p/[project]/views/[viewId]: rename, share or stop sharing. */
export const updateSavedViewRequest = z
  .object({ name: viewName.optional(), shared: z.boolean({ error: "must be true or false" }).optional() })
  .refine((v) => v.name !== undefined || v.shared !== undefined, { error: "name or shared is required", path: ["name"] });
export type UpdateSavedViewRequest = z.output<typeof updateSavedViewRequest>;

/** A view as listed: `query` is the Messages URL's search (`q=…&status=…`), ready to open. */
export const savedView = z.object({
  id: z.string(),
  name: z.string(),
  shared: z.boolean(),
  query: z.string(),
  owner: z.string(),
  mine: z.boolean(),
  /** Whether the reader may rename or delete it: its owner, or an admin for a shared one. */
  canManage: z.boolean(),
  updatedAt: z.string(),
});
export type SavedView = z.infer<typeof savedView>;
export const savedViewList = z.object({ data: z.array(savedView) });

/** The state as its URL text, fields in one order, empty ones left out. */
export function savedViewQuery(state: SavedViewState): string {
  const out = new URLSearchParams();
  for (const key of SAVED_VIEW_PARAMS) {
    const value = state[key];
    if (value) out.set(key, value);
  }
  return out.toString();
}
