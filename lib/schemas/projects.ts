import { z } from "zod";

/**
 * The service's project id. It appears in /p/[project] URLs, so it is limited to characters
 * that need no escaping there.
 */
export const projectExternalId = z
  .string({ error: "is required" })
  .trim()
  .min(1, { error: "is required" })
  .max(200, { error: "must be at most 200 characters" })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._~:-]*$/, {
    error: "may contain only letters, digits, dots, dashes, underscores, tildes and colons",
  });

const projectName = z
  .string({ error: "is required" })
  .trim()
  .min(1, { error: "is required" })
  .max(100, { error: "must be at most 100 characters" });

export const createProjectRequest = z.object({
  externalId: projectExternalId,
  /** Defaults to the external id. */
  name: projectName.optional(),
});
export type CreateProjectRequest = z.input<typeof createProjectRequest>;

export const updateProjectRequest = z.object({ name: projectName });
export type UpdateProjectRequest = z.input<typeof updateProjectRequest>;

export const project = z.object({
  id: z.string(),
  externalId: z.string(),
  name: z.string(),
  createdAt: z.string(),
});
export type ProjectView = z.infer<typeof project>;
export const projectList = z.object({ data: z.array(project) });
