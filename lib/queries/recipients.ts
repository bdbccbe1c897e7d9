import { api, lazySchema } from "@/lib/api-client";

const erasureSchemas = () => import("@/lib/schemas/erasure");

export const recipientMutations = {
  /** Erases the address from the dashboard's own records; the body repeats it as the confirmation. */
  erase: (project: string, email: string) =>
    api.post(`/api/p/${encodeURIComponent(project)}/recipients/${encodeURIComponent(email)}/erase`, { confirmEmail: email }, { schema: lazySchema(erasureSchemas, "erasureResult") }),
};
