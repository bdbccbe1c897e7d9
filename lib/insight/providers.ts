/**
 * Mailbox providers: who holds a recipient's mailbox. Consumer domains are known by name
 * (the list below, kept by hand: the big providers' own domains and country variants); a
 * company domain is known by where its MX records point (Google Workspace, Microsoft 365…),
 * looked up by the server (lib/server/insight/domains.ts). Browser-safe: the screens use the
 * labels and descriptions.
 */
export const PROVIDER_KEYS = ["gmail", "microsoft", "yahoo", "apple", "other"] as const;
export type ProviderKey = (typeof PROVIDER_KEYS)[number];

export const PROVIDERS: Record<ProviderKey, { label: string; description: string }> = {
  gmail: { label: "Gmail", description: "gmail.com, googlemail.com and company domains on Google Workspace" },
  microsoft: { label: "Microsoft", description: "Outlook.com, Hotmail, Live, MSN and company domains on Microsoft 365" },
  yahoo: { label: "Yahoo", description: "Yahoo Mail, AOL and the other Yahoo-hosted domains" },
  apple: { label: "Apple", description: "iCloud, me.com, mac.com and custom domains on iCloud Mail" },
  other: { label: "Other", description: "every other mailbox host, and domains not looked up yet" },
};

export function isProviderKey(value: string): value is ProviderKey {
  return (PROVIDER_KEYS as readonly string[]).includes(value);
}

/** Exact consumer domains. */
const CONSUMER_DOMAINS: Record<string, ProviderKey> = {
  "gmail.com": "gmail",
  "googlemail.com": "gmail",
  "outlook.com": "microsoft",
  "hotmail.com": "microsoft",
  "live.com": "microsoft",
  "msn.com": "microsoft",
  "passport.com": "microsoft",
  "windowslive.com": "microsoft",
  "yahoo.com": "yahoo",
  "ymail.com": "yahoo",
  "rocketmail.com": "yahoo",
  "aol.com": "yahoo",
  "aim.com": "yahoo",
  "verizon.net": "yahoo",
  "icloud.com": "apple",
  "me.com": "apple",
  "mac.com": "apple",
};

/**
 * Country variants: `hotmail.co.uk`, `live.fr`, `yahoo.com.br`, `aol.de`… — the label before
 * a country or generic suffix. Yahoo Japan (`yahoo.co.jp`) is another company (LY Corp) and
 * is left out.
 */
const CONSUMER_BRANDS: Record<string, ProviderKey> = {
  hotmail: "microsoft",
  outlook: "microsoft",
  live: "microsoft",
  windowslive: "microsoft",
  yahoo: "yahoo",
  aol: "yahoo",
};
const NOT_THE_BRAND = new Set(["yahoo.co.jp", "yahoo.ne.jp"]);
/** `fr`, `co.uk`, `com.br`, `com`: a country code, optionally after a generic second level. */
const COUNTRY_SUFFIX = /^(?:(?:co|com|net|org)\.)?[a-z]{2,3}$/;

/** The provider of a consumer domain from the list, or null when the list does not name it. */
export function consumerProvider(domain: string): ProviderKey | null {
  const d = domain.trim().toLowerCase().replace(/\.$/, "");
  if (Object.hasOwn(CONSUMER_DOMAINS, d)) return CONSUMER_DOMAINS[d];
  if (NOT_THE_BRAND.has(d)) return null;
  const dot = d.indexOf(".");
  if (dot <= 0) return null;
  const brand = d.slice(0, dot);
  if (!Object.hasOwn(CONSUMER_BRANDS, brand)) return null;
  return COUNTRY_SUFFIX.test(d.slice(dot + 1)) ? CONSUMER_BRANDS[brand] : null;
}

/** MX host suffixes of the providers' hosted mail. */
const MX_SUFFIXES: [string, ProviderKey][] = [
  ["google.com", "gmail"], // aspmx.l.google.com, smtp.google.com
  ["googlemail.com", "gmail"], // aspmx2.googlemail.com
  ["protection.outlook.com", "microsoft"], // <tenant>.mail.protection.outlook.com (Microsoft 365), *.olc.protection.outlook.com
  ["outlook.com", "microsoft"],
  ["hotmail.com", "microsoft"],
  ["yahoodns.net", "yahoo"], // mta5.am0.yahoodns.net, mx-aol.mail.gm0.yahoodns.net
  ["yahoo.com", "yahoo"],
  ["icloud.com", "apple"], // mx01.mail.icloud.com (iCloud custom domains)
  ["me.com", "apple"],
];

/** The provider behind one MX host, or null when it is none of the big ones. */
export function mxHostProvider(host: string): ProviderKey | null {
  const h = host.trim().toLowerCase().replace(/\.$/, "");
  for (const [suffix, provider] of MX_SUFFIXES) if (h === suffix || h.endsWith(`.${suffix}`)) return provider;
  return null;
}

/** A domain's provider from its MX hosts, most preferred (lowest priority) first: the first host recognised decides, else Other. */
export function providerFromMx(mx: { exchange: string; priority: number }[]): ProviderKey {
  const sorted = [...mx].sort((a, b) => a.priority - b.priority);
  for (const record of sorted) {
    const provider = mxHostProvider(record.exchange);
    if (provider) return provider;
  }
  return "other";
}
