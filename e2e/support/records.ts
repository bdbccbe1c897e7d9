import { randomBytes } from "node:crypto";
import { createContact, firstId, sendMessage } from "../../scripts/lib/service-api";
import { run, serviceKey } from "./run";

/**
 * Real records of a project for the dynamic segments of screens and routes, made or found
 * through the service directly (as the project's own back-end would), keyed for `fill`.
 */
export async function sampleValues(project: string): Promise<Record<string, string>> {
  const access = { serviceURL: run.serviceURL, key: serviceKey(), project };
  const recipient = "delivered@example.com";
  return {
    project,
    "messages/[id]": await sendMessage(access, { to: recipient }),
    "recipients/[email]": recipient,
    "domains/[id]": await firstId(access, "/v1/domains"),
    "templates/[id]": await firstId(access, "/v1/templates"),
    "contacts/[id]": await createContact(access, `contact-${randomBytes(4).toString("hex")}@example.com`),
  };
}
