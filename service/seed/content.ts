import type { Person } from "./people";
import type { Random } from "./random";

/**
 * What the demo's app sends: the three stored templates (with merge data) and plain sends,
 * each with its category tag, its links, and how readers react to it.
 */
export type Kind = "receipt" | "welcome" | "password-reset" | "shipping" | "invoice" | "digest" | "trial-ending" | "reply";

export type Composed = {
  kind: Kind;
  from: { email: string; name: string };
  /** A stored template's slug, rendered with `data`; otherwise `subject`/`html`/`text` as given. */
  template?: "receipt" | "welcome" | "password-reset";
  data?: Record<string, unknown>;
  subject?: string;
  html?: string;
  text?: string;
  tags: { name: string; value: string }[];
  headers: Record<string, string>;
  /** The links a reader may click, most clicked first. */
  links: string[];
};

/** Reader behaviour per kind: opens relative to a person's habit; clicks given an open. */
export const REACTIONS: Record<Kind, { open: number; click: number; complaint: number }> = {
  receipt: { open: 1.05, click: 0, complaint: 0.3 },
  welcome: { open: 1.25, click: 0.38, complaint: 0.5 },
  "password-reset": { open: 1.7, click: 0.4, complaint: 0 },
  shipping: { open: 1.2, click: 0.2, complaint: 0.3 },
  invoice: { open: 0.9, click: 0.18, complaint: 0.5 },
  digest: { open: 0.65, click: 0.26, complaint: 4 },
  "trial-ending": { open: 0.85, click: 0.18, complaint: 1 },
  reply: { open: 2, click: 0, complaint: 0 },
};

const CATALOG = [
  ["Notebook", "$12.00"], ["Pencil set", "$18.00"], ["Desk lamp", "$49.00"], ["Monitor stand", "$89.00"], ["USB-C hub", "$39.00"],
  ["Ergonomic mouse", "$59.00"], ["Mechanical keyboard", "$129.00"], ["Cable kit", "$15.00"], ["Laptop sleeve", "$35.00"], ["Webcam cover", "$6.00"],
] as const;

const DIGEST_POSTS = [
  ["How we cut checkout time in half", "/blog/faster-checkout"],
  ["Five ways to organise your workspace", "/blog/organise-your-workspace"],
  ["Introducing team billing", "/blog/team-billing"],
  ["Our spring collection is here", "/blog/spring-collection"],
  ["A year of carbon-neutral shipping", "/blog/carbon-neutral-shipping"],
] as const;

const SITE = "https://acme.test";
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function page(title: string, paragraphs: string[], links: [string, string][], footer = ""): string {
  return [
    `<!doctype html><html lang="en"><body style="margin:0;padding:24px;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b">`,
    `<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px"><tr><td>`,
    `<h1 style="font-size:22px;margin:0 0 16px">${esc(title)}</h1>`,
    ...paragraphs.map((p) => `<p style="font-size:15px;line-height:1.6">${esc(p)}</p>`),
    ...links.map(([label, href]) => `<p><a href="${esc(href)}" style="color:#2563eb">${esc(label)}</a></p>`),
    footer ? `<p style="font-size:12px;color:#71717a">${footer}</p>` : "",
    `</td></tr></table></body></html>`,
  ].join("\n");
}

export type Context = { domain: string; fromName: string; orderSeq: () => number; digestWeek: number };

/** One message of `kind` to `person`, as the demo app would have sent it. */
export function compose(random: Random, kind: Exclude<Kind, "reply">, person: Person, ctx: Context): Composed {
  const hello = { email: `hello@${ctx.domain}`, name: ctx.fromName };
  const billing = { email: `billing@${ctx.domain}`, name: `${ctx.fromName} Billing` };
  const tags = (value: string) => [{ name: "category", value }];
  switch (kind) {
    case "receipt": {
      const items = Array.from({ length: random.weighted([[1, 5], [2, 3], [3, 1]] as const) }, () => {
        const [name, price] = random.pick(CATALOG);
        const quantity = random.weighted([[1, 6], [2, 2], [3, 1]] as const);
        return { name, quantity, price, cents: Math.round(Number(price.slice(1)) * 100) * quantity };
      });
      const total = money(items.reduce((sum, i) => sum + i.cents, 0));
      const orderNumber = `A-${ctx.orderSeq()}`;
      return {
        kind, from: billing, template: "receipt", tags: tags("receipt"), headers: {}, links: [],
        data: { customerName: person.name, orderNumber, total, items: items.map(({ name, quantity, price }) => ({ name, quantity, price })) },
      };
    }
    case "welcome": {
      const actionUrl = `${SITE}/start`;
      return { kind, from: hello, template: "welcome", tags: tags("onboarding"), headers: {}, links: [actionUrl], data: { firstName: person.firstName, product: "Acme", actionUrl } };
    }
    case "password-reset": {
      const resetUrl = `${SITE}/account/reset?token=${random.chars("abcdefghijklmnopqrstuvwxyz0123456789", 24)}`;
      return {
        kind, from: { email: `security@${ctx.domain}`, name: `${ctx.fromName} Security` }, template: "password-reset", tags: tags("security"), headers: {},
        links: [resetUrl], data: { firstName: person.firstName, product: "Acme", resetUrl, expiresInMinutes: 30 },
      };
    }
    case "shipping": {
      const order = `A-${ctx.orderSeq()}`;
      const tracking = `${SITE}/orders/${order}/tracking`;
      const subject = `Your order ${order} has shipped`;
      const carrier = random.pick(["DHL", "UPS", "FedEx", "PostNL"]);
      const text = `Hi ${person.firstName},\n\nyour order ${order} is on its way with ${carrier}.\nTrack it: ${tracking}\nDelivery questions: ${SITE}/help/delivery\n`;
      return {
        kind, from: hello, subject, text, tags: tags("shipping"), headers: {}, links: [tracking, `${SITE}/help/delivery`],
        html: page(subject, [`Hi ${person.firstName}, your order ${order} is on its way with ${carrier}.`], [["Track your parcel", tracking], ["Delivery questions", `${SITE}/help/delivery`]]),
      };
    }
    case "invoice": {
      const number = `INV-${random.int(10000, 99999)}`;
      const subject = `Your invoice ${number} is ready`;
      const link = `${SITE}/billing/invoices`;
      return {
        kind, from: billing, subject, tags: tags("billing"), headers: {}, links: [link],
        text: `Hi ${person.firstName},\n\ninvoice ${number} for your Acme subscription is ready.\nView and download it: ${link}\n`,
        html: page(subject, [`Hi ${person.firstName}, invoice ${number} for your Acme subscription is ready.`], [["View your invoices", link]]),
      };
    }
    case "digest": {
      const [headline, path] = DIGEST_POSTS[ctx.digestWeek % DIGEST_POSTS.length];
      const unsubscribe = `${SITE}/unsubscribe`;
      const links: [string, string][] = [[headline, `${SITE}${path}`], ["See what changed", `${SITE}/changelog`], ["Plans and pricing", `${SITE}/pricing`]];
      const subject = `What's new at Acme: ${headline.toLowerCase()}`;
      return {
        kind, from: hello, subject, tags: [...tags("product-update"), { name: "campaign", value: `digest-week-${ctx.digestWeek}` }],
        headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        links: [...links.map(([, href]) => href), unsubscribe],
        text: `${headline}\n${SITE}${path}\n\nAlso new: ${SITE}/changelog\nPricing: ${SITE}/pricing\n\nUnsubscribe: ${unsubscribe}\n`,
        html: page(subject, [`Hi ${person.firstName}, here is what happened at Acme this week.`], links, `Not interested any more? <a href="${unsubscribe}">Unsubscribe</a>.`),
      };
    }
    case "trial-ending": {
      const link = `${SITE}/billing/upgrade`;
      const subject = "Your Acme trial ends in 3 days";
      return {
        kind, from: hello, subject, tags: tags("lifecycle"), headers: {}, links: [link],
        text: `Hi ${person.firstName},\n\nyour trial ends in 3 days. Keep your workspace: ${link}\n`,
        html: page(subject, [`Hi ${person.firstName}, your trial ends in 3 days.`], [["Choose a plan", link]]),
      };
    }
  }
}

/** What customers write back, and what support answers. */
export const CUSTOMER_REPLIES = [
  "Hi, I was charged twice for this order. Could you check?",
  "Can I change the delivery address? I am moving next week.",
  "Thanks! One item is missing from the parcel though.",
  "Could you send the invoice with our company's VAT number on it?",
  "The tracking link says the parcel is lost. What now?",
  "Is it possible to add a second item to this order?",
  "Hello, I never received the parcel, the tracking says delivered.",
  "Great service, thank you!",
] as const;
export const NEW_QUESTIONS = [
  ["Question about team billing", "Hi, do you offer invoices per team instead of per seat?"],
  ["Cannot sign in", "Hello, the password reset link says it has expired. Can you help?"],
  ["Bulk order", "We would like to order 40 monitor stands for our office. Is there a discount?"],
  ["Change billing email", "Please send future invoices to accounts@ our domain instead."],
] as const;
export const SUPPORT_ANSWERS = [
  "Thanks for reaching out. I have looked into it and sorted it out for you; you will see the change within a day.",
  "Sorry about that! I have issued a refund for the duplicate charge; it takes 3–5 business days to show.",
  "Good news: we have updated your order. Let me know if anything else comes up.",
  "I have passed this on to our logistics team and will get back to you by tomorrow.",
] as const;
