import { expectTypeOf } from "vitest";
import type { Actor, Project } from "./access";
import { guardPage } from "./guard";
import { route } from "./route";

/**
 * Type-level guarantees of the guard, checked by `tsc --noEmit` (never run): a project-scoped
 * handler or page gets `project: Project`, never `Project | null`, and any other gets none.
 */

route<{ project: string; id: string }>("messages:read", async (ctx) => {
  expectTypeOf(ctx.project).toEqualTypeOf<Project>();
  expectTypeOf(ctx.user).toEqualTypeOf<Actor>();
  return null;
});

route("users:manage", async (ctx) => {
  expectTypeOf(ctx).not.toHaveProperty("project");
  return null;
});

route<{ project: string }>(null, async (ctx) => {
  expectTypeOf(ctx.user).toEqualTypeOf<null>();
  expectTypeOf(ctx).not.toHaveProperty("project");
  return null;
});

export async function pages() {
  expectTypeOf((await guardPage("messages:read", "demo")).project).toEqualTypeOf<Project>();
  expectTypeOf((await guardPage("messages:read", Promise.resolve({ project: "demo", id: "m1" }))).project).toEqualTypeOf<Project>();
  expectTypeOf(await guardPage("users:manage")).toEqualTypeOf<{ user: Actor }>();
}
