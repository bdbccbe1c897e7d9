import "server-only";
import { contact, type CreateContactRequest } from "@/lib/schemas";
import { callService } from "../service-client";
import { seg } from "./path";

export const contacts = {
  create: async (project: string, body: CreateContactRequest) =>
    callService({ method: "POST", path: "/v1/contacts", project, body, schema: contact }),

  get: async (project: string, id: string) =>
    callService({ method: "GET", path: `/v1/contacts/${seg(id)}`, project, schema: contact }),

  resubscribe: async (project: string, id: string) =>
    callService({ method: "POST", path: `/v1/contacts/${seg(id)}/resubscribe`, project, schema: contact }),
};
