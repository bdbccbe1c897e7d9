import { newId } from "./ids";

/** The contrarian's state: in memory, in creation order (which is also the order lists use). */

export interface ApiKeyRecord {
  id: string;
  name: string;
  hash: string;
  /** Null for an account-wide key. */
  projectId: string | null;
  scopes: string[];
  createdAt: Date;
}

/** One element of a message's `events`, in the contrarian's own layout. */
export interface EventElement {
  event: string;
  /** Epoch seconds. */
  timestamp: number;
  details?: Record<string, unknown>;
}

export interface StoredAttachment {
  id: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export interface StoredMessage {
  id: string;
  projectId: string;
  direction: "inbound" | "outbound";
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string | null;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  tags: { name: string; value: string }[];
  attachments: StoredAttachment[];
  status: string;
  events: EventElement[];
  createdAt: Date;
  scheduledAt: Date | null;
  templateId: string | null;
}

/** A message written by hand (a reply, a simulated inbound one): no copies, headers, tags or attachments, queued now. */
export function plainMessage(m: Pick<StoredMessage, "projectId" | "direction" | "from" | "to" | "subject" | "html" | "text">): StoredMessage {
  return { id: newId("em"), ...m, cc: [], bcc: [], replyTo: [], headers: {}, tags: [], attachments: [], status: "queued", events: [], createdAt: new Date(), scheduledAt: null, templateId: null };
}

export interface DnsRecord {
  type: string;
  name: string;
  value: string;
  priority?: number;
  purpose: string;
  verified: boolean;
}

export interface StoredDomain {
  id: string;
  projectId: string;
  domain: string;
  state: "pending" | "verified" | "failed";
  records: DnsRecord[];
  receiving: { enabled: boolean; records: DnsRecord[] };
  createdAt: Date;
}

export interface StoredContact {
  id: string;
  projectId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  subscribed: boolean;
  unsubscribedAt: Date | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

export interface StoredTemplate {
  id: string;
  projectId: string;
  slug: string | null;
  name: string;
  subject: string;
  html: string | null;
  text: string | null;
  createdAt: Date;
}

export interface StoredSuppression {
  projectId: string;
  email: string;
  reason: string;
  origin: "api" | "bounce" | "complaint" | "seed";
  createdAt: Date;
}

export interface StoredWebhook {
  id: string;
  projectId: string;
  url: string;
  eventTypes: string[];
  secret: string;
  createdAt: Date;
  deleted: boolean;
}

/** One attempt to deliver one event to one endpoint, for the test-only delivery log. */
export interface DeliveryAttempt {
  deliveryId: string;
  endpointId: string;
  projectId: string;
  url: string;
  event: string;
  emailId: string;
  attempt: number;
  /** HTTP status of the answer, or null when none came (refused, timed out). */
  status: number | null;
  error: string | null;
  at: string;
  outcome: "delivered" | "retrying" | "failed" | "cancelled";
}

export interface IdempotentResult {
  status: number;
  body: unknown;
  at: number;
}

export class Store {
  projects: string[] = [];
  keys: ApiKeyRecord[] = [];
  messages = new Map<string, StoredMessage>();
  domains: StoredDomain[] = [];
  contacts: StoredContact[] = [];
  templates: StoredTemplate[] = [];
  suppressions: StoredSuppression[] = [];
  webhooks: StoredWebhook[] = [];
  deliveries: DeliveryAttempt[] = [];
  /** `${project}|${key}` → the first answer. */
  idempotency = new Map<string, IdempotentResult>();

  suppressionOf(projectId: string, email: string): StoredSuppression | undefined {
    const wanted = email.toLowerCase();
    return this.suppressions.find((s) => s.projectId === projectId && s.email.toLowerCase() === wanted);
  }

  addSuppression(projectId: string, email: string, reason: string, origin: StoredSuppression["origin"]): StoredSuppression {
    const existing = this.suppressionOf(projectId, email);
    if (existing) {
      // A second add with another reason replaces the reason; the entry keeps its place.
      existing.reason = reason;
      return existing;
    }
    const created: StoredSuppression = { projectId, email, reason, origin, createdAt: new Date() };
    this.suppressions.push(created);
    return created;
  }
}
