import { z } from "zod";
import { ROLES } from "@/lib/permissions";
import { emailAddress, factorCode } from "./common";
import { passkeyAssertion } from "./passkeys";

export const role = z.enum(ROLES, { error: `must be one of: ${ROLES.join(", ")}` });

export const MIN_PASSWORD_LENGTH = 12;
export const password = z
  .string({ error: "is required" })
  .min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` })
  // bcrypt reads only the first 72 bytes; longer input would silently be truncated.
  .refine((v) => new TextEncoder().encode(v).length <= 72, { error: "must be at most 72 bytes" });

const displayName = z.string().trim().max(200, { error: "must be at most 200 characters" });

/** Sign-in form. Only presence is checked: the answer to a wrong value is the same either way. */
export const loginRequest = z.object({
  email: z.string({ error: "is required" }).trim().min(1, { error: "is required" }).max(254),
  password: z.string({ error: "is required" }).min(1, { error: "is required" }).max(1000),
  callbackUrl: z.string().max(2000).optional(),
});

const projectIds = z.array(z.string().min(1).max(200)).max(1000, { error: "must list at most 1000 projects" });

export const createUserRequest = z.object({
  email: emailAddress,
  name: displayName.nullish().transform((v) => v || null),
  role,
  /** Omitted: a password is generated and shown once. */
  password: password.optional(),
  /** Project access is chosen at creation; without a choice the user can open no project. */
  allProjects: z.boolean({ error: "must be true or false" }).default(false),
  /** Dashboard project ids (`Project.id`), when `allProjects` is false. */
  projectIds: projectIds.default([]),
});
export type CreateUserRequest = z.input<typeof createUserRequest>;

export const updateUserRequest = z
  .object({
    role: role.optional(),
    active: z.boolean({ error: "must be true or false" }).optional(),
    // Optional outside the transform too, so the parsed type (what updateUser takes) may leave it out.
    name: displayName.nullish().transform((v) => (v === undefined ? undefined : v || null)).optional(),
  })
  .refine((v) => v.role !== undefined || v.active !== undefined || v.name !== undefined, {
    error: "change at least one of role, active or name",
  });
export type UpdateUserRequest = z.input<typeof updateUserRequest>;

export const userProjectsRequest = z.object({
  allProjects: z.boolean({ error: "must be true or false" }),
  /** Dashboard project ids (`Project.id`), not external ids. */
  projectIds: projectIds.default([]),
});
export type UserProjectsRequest = z.input<typeof userProjectsRequest>;

/** A user as the admin screens see it; never carries the password hash. */
export const userView = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role,
  active: z.boolean(),
  allProjects: z.boolean(),
  projectIds: z.array(z.string()),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  /** Sessions that are live now (signed in, not ended, not expired). */
  activeSessions: z.number().int(),
});
export type UserView = z.infer<typeof userView>;

export const userList = z.object({ data: z.array(userView) });
/** `password` is set only when the server generated it; shown once. */
export const createUserResponse = z.object({ user: userView, password: z.string().nullable() });
export type CreateUserResponse = z.infer<typeof createUserResponse>;
export const resetPasswordResponse = z.object({ password: z.string() });
export type ResetPasswordResponse = z.infer<typeof resetPasswordResponse>;
/** Answer of ending a user's sessions: how many were live. */
export const endSessionsResponse = z.object({ ended: z.number().int() });
export type EndSessionsResponse = z.infer<typeof endSessionsResponse>;

/**
 * Body of confirming oneself again (POST /api/auth/reconfirm): the password, or a code of the
 * user's second factor; presence only, as at sign-in.
 */
export const reconfirmRequest = z
  .object({
    password: loginRequest.shape.password.optional(),
    code: factorCode.optional(),
    /** A passkey's answer to the step-up's challenge (POST /api/auth/reconfirm/passkey). */
    assertion: passkeyAssertion.optional(),
  })
  .refine((v) => [v.password, v.code, v.assertion].filter((x) => x !== undefined).length === 1, { error: "give one of password, code or assertion" });
/** Answer of confirming the password again (POST /api/auth/reconfirm). */
export const reconfirmResponse = z.object({ confirmedAt: z.string() });
export type ReconfirmResponse = z.infer<typeof reconfirmResponse>;
