import { BlockList, isIP } from "node:net";

/**
 * Which IP addresses a server may be asked to connect to on someone else's behalf (webhook
 * deliveries, link checks). Everything that reaches this machine, the local network or a
 * cloud provider's metadata service is refused; IPv4-mapped and IPv4-embedding IPv6 forms
 * are judged by the IPv4 address inside them.
 */

/** Refused unless the policy allows private destinations (development, a receiver on the LAN). */
export type PrivateKind = "loopback" | "private" | "shared" | "link-local" | "unique-local";
/** Refused always: no legitimate webhook or link points there. */
export type ForbiddenKind = "metadata" | "unspecified" | "multicast" | "reserved";
export type IpVerdict = { kind: PrivateKind; reason: string; forbidden: false } | { kind: ForbiddenKind; reason: string; forbidden: true } | null;

const REASONS: Record<PrivateKind | ForbiddenKind, string> = {
  loopback: "a loopback address (this machine)",
  private: "a private network address (RFC 1918)",
  shared: "a shared address space address (carrier-grade NAT, 100.64.0.0/10)",
  "link-local": "a link-local address",
  "unique-local": "a unique-local IPv6 address (fc00::/7)",
  metadata: "a cloud metadata service address",
  unspecified: "the unspecified address",
  multicast: "a multicast or broadcast address",
  reserved: "a reserved or documentation address",
};

function list(entries: [string, number, "ipv4" | "ipv6"][]): BlockList {
  const b = new BlockList();
  for (const [net, prefix, type] of entries) b.addSubnet(net, prefix, type);
  return b;
}

// Checked in this order; the first that holds names the reason.
const V4: [PrivateKind | ForbiddenKind, BlockList][] = [
  ["metadata", list([["169.254.169.254", 32, "ipv4"], ["169.254.170.2", 32, "ipv4"], ["169.254.169.123", 32, "ipv4"], ["100.100.100.200", 32, "ipv4"]])],
  ["unspecified", list([["0.0.0.0", 8, "ipv4"]])],
  ["loopback", list([["127.0.0.0", 8, "ipv4"]])],
  ["private", list([["10.0.0.0", 8, "ipv4"], ["172.16.0.0", 12, "ipv4"], ["192.168.0.0", 16, "ipv4"]])],
  ["shared", list([["100.64.0.0", 10, "ipv4"]])],
  ["link-local", list([["169.254.0.0", 16, "ipv4"]])],
  ["multicast", list([["224.0.0.0", 4, "ipv4"], ["255.255.255.255", 32, "ipv4"]])],
  [
    "reserved",
    list([
      ["192.0.0.0", 24, "ipv4"], ["192.0.2.0", 24, "ipv4"], ["192.88.99.0", 24, "ipv4"], ["198.18.0.0", 15, "ipv4"],
      ["198.51.100.0", 24, "ipv4"], ["203.0.113.0", 24, "ipv4"], ["240.0.0.0", 4, "ipv4"],
    ]),
  ],
];

const V6: [PrivateKind | ForbiddenKind, BlockList][] = [
  ["metadata", list([["fd00:ec2::254", 128, "ipv6"]])],
  ["unspecified", list([["::", 128, "ipv6"]])],
  ["loopback", list([["::1", 128, "ipv6"]])],
  ["link-local", list([["fe80::", 10, "ipv6"], ["fec0::", 10, "ipv6"]])],
  ["unique-local", list([["fc00::", 7, "ipv6"]])],
  ["multicast", list([["ff00::", 8, "ipv6"]])],
  [
    "reserved",
    list([
      ["::", 96, "ipv6"], // IPv4-compatible (deprecated)
      ["64:ff9b:1::", 48, "ipv6"], // local-use NAT64
      ["100::", 64, "ipv6"], // discard-only
      ["2001::", 23, "ipv6"], // IETF protocol assignments (Teredo, ORCHID, benchmarking)
      ["2001:db8::", 32, "ipv6"], // documentation
    ]),
  ],
];

function verdict(kind: PrivateKind | ForbiddenKind): IpVerdict {
  const forbidden = kind === "metadata" || kind === "unspecified" || kind === "multicast" || kind === "reserved";
  return forbidden ? { kind: kind as ForbiddenKind, reason: REASONS[kind], forbidden: true } : { kind: kind as PrivateKind, reason: REASONS[kind], forbidden: false };
}

/** Eight 16-bit groups of an IPv6 address (no zone), or null. */
export function groups(ip: string): number[] | null {
  let text = ip;
  const v4tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4tail) {
    const p = v4tail[1].split(".").map(Number);
    text = `${text.slice(0, -v4tail[1].length)}${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  const fill = text.includes("::") ? 8 - h.length - t.length : 0;
  const all = [...h, ...Array(Math.max(0, fill)).fill(0), ...t];
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : null;
}

const v4From = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries: mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d
 * (SIIT, RFC 2765), NAT64 64:ff9b::/96 (RFC 6052) and 6to4 2002::/16 (RFC 3056). `routable`:
 * whether the IPv6 form itself reaches a public IPv4 address on the internet; a translated
 * address only means something behind a translator, so it is never reached, whatever it holds.
 */
function embeddedV4(ip: string): { v4: string; routable: boolean } | null {
  const g = groups(ip);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return { v4: v4From(g[6], g[7]), routable: true };
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return { v4: v4From(g[6], g[7]), routable: false };
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return { v4: v4From(g[6], g[7]), routable: true };
  if (g[0] === 0x2002) return { v4: v4From(g[1], g[2]), routable: true };
  return null;
}

/** Why an address may not be reached, or null for an ordinary public address. Not an IP at all counts as reserved. */
export function classifyIp(address: string): IpVerdict {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  const family = isIP(ip);
  if (family === 4) {
    for (const [kind, b] of V4) if (b.check(ip, "ipv4")) return verdict(kind);
    return null;
  }
  if (family === 6) {
    const inner = embeddedV4(ip);
    // Judged by the IPv4 address inside (the reason names what it reaches), then by the form.
    if (inner) return classifyIp(inner.v4) ?? (inner.routable ? null : verdict("reserved"));
    for (const [kind, b] of V6) if (b.check(ip, "ipv6")) return verdict(kind);
    return null;
  }
  return verdict("reserved");
}

export function isPublicIp(ip: string): boolean {
  return classifyIp(ip) === null;
}
