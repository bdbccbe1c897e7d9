import type { StoredContact, StoredDomain, StoredMessage, StoredSuppression, StoredTemplate, StoredWebhook } from "./store";

/**
 * The wire shapes. Every field the interface lists is here; optional ones the interface does
 * not define are left out (no threadId, html, text or tags on messages, no status on domain
 * list items, no variables on templates); fields of its own are added everywhere.
 */

export function messageView(m: StoredMessage) {
  return {
    object: "email",
    id: m.id,
    from: m.from,
    to: m.to,
    subject: m.subject,
    status: m.status,
    direction: m.direction,
    createdAt: m.createdAt.toISOString(),
    events: m.events,
    sizeBytes: Buffer.byteLength(`${m.subject ?? ""}${m.html ?? ""}${m.text ?? ""}`) + m.attachments.reduce((n, a) => n + a.bytes.length, 0),
    region: "contrarian-west-1",
  };
}

export function domainView(d: StoredDomain, withStatus: boolean) {
  return {
    object: "domain",
    id: d.id,
    domain: d.domain,
    ...(withStatus ? { status: d.state } : {}),
    records: d.records,
    createdAt: d.createdAt.toISOString(),
    region: "contrarian-west-1",
    openTracking: false,
  };
}

export function contactView(c: StoredContact) {
  return {
    object: "contact",
    id: c.id,
    email: c.email,
    firstName: c.firstName,
    lastName: c.lastName,
    subscribed: c.subscribed,
    unsubscribedAt: c.unsubscribedAt?.toISOString() ?? null,
    metadata: c.metadata,
    createdAt: c.createdAt.toISOString(),
    source: "api",
  };
}

export function templateView(t: StoredTemplate) {
  return {
    object: "template",
    id: t.id,
    slug: t.slug,
    name: t.name,
    subject: t.subject,
    html: t.html,
    text: t.text,
    createdAt: t.createdAt.toISOString(),
    locale: "en-GB",
    version: 3,
  };
}

export function suppressionView(s: StoredSuppression) {
  return { object: "suppression", email: s.email, reason: s.reason, createdAt: s.createdAt.toISOString(), origin: s.origin };
}

export function webhookView(w: StoredWebhook, secret: "full" | "redacted") {
  return {
    object: "webhook",
    id: w.id,
    url: w.url,
    enabled: !w.deleted,
    eventTypes: w.eventTypes,
    signingSecret: secret === "full" ? w.secret : "[redacted]",
    createdAt: w.createdAt.toISOString(),
    deliveryFormat: "contrarian/v1",
  };
}
