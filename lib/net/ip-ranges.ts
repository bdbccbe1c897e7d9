import { BlockList, isIP } from "node:net";
import { groups } from "@/contract/net/ip";

// Addresses and ranges, pure: below lib/server, since env.ts validates its address settings
// with it and http/ (client-address.ts, which reads env) matches requests against them.

/** "::ffff:10.0.0.1" (an IPv4 peer on a dual-stack socket) → "10.0.0.1"; anything else unchanged. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1] : trimmed;
}

/** An IPv4/IPv6 address, or one with a /prefix. */
export function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A set of addresses and ranges, asked "is this address in it?". Entries are validated by lib/server/env.ts. */
export function addressSet(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (raw) => {
    const address = normalizeAddress(raw);
    const family = isIP(address);
    if (!family) return false;
    return list.check(address, family === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * The network a client's address stands for when sharing out a budget: an IPv4 address
 * itself, an IPv6 address its /64 — one subscriber's network, which holds more addresses than
 * anyone could use, so a share per IPv6 address would be no share at all.
 */
export function networkOf(raw: string): string {
  const address = normalizeAddress(raw).replace(/%.*$/, "");
  const g = isIP(address) === 6 ? groups(address) : null;
  return g ? `${g.slice(0, 4).map((x) => x.toString(16)).join(":")}::/64` : address;
}
