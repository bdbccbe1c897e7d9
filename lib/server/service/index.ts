import "server-only";
import { apiKeys } from "./api-keys";
import { contacts } from "./contacts";
import { domains } from "./domains";
import { emails } from "./emails";
import { inbound } from "./inbound";
import { projects } from "./projects";
import { suppressions } from "./suppressions";
import { templates } from "./templates";
import { webhooks } from "./webhooks";

/**
 * One typed wrapper per interface operation, all through `callService`. The `project`
 * argument is the external id the guard resolved; never a value from the browser.
 */
export const service = { emails, domains, contacts, templates, suppressions, webhooks, apiKeys, inbound, projects };
