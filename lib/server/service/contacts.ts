import "server-only";
import type { CreateContactRequest } from "@/lib/schemas/contacts";
import { callService } from "./client";
import { seg } from "./path";
import { contactReader } from "./readers";

export const contacts = {
  create: async (project: string, body: CreateContactRequest) =>
    callService({ method: "POST", path: "/v1/contacts", project, body, schema: contactReader }),

  get: async (project: string, id: string) =>
    callService({ method: "GET", path: `/v1/contacts/${seg(id)}`, project, schema: contactReader }),

  resubscribe: async (project: string, id: string) =>
    callService({ method: "POST", path: `/v1/contacts/${seg(id)}/resubscribe`, project, schema: contactReader }),
};
