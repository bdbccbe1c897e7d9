import dns2 from "dns2";

/**
 * A small authoritative DNS server for tests (Vitest here, and end-to-end runs that want a
 * domain's records "published"): answers from an in-memory zone over UDP on 127.0.0.1 and a
 * port the system picks. A CNAME answers every type at its name, as real DNS does.
 */
export type FakeRecord =
  | { type: "TXT"; data: string | string[] }
  | { type: "MX"; exchange: string; priority: number }
  | { type: "CNAME"; target: string }
  | { type: "A"; address: string }
  /** A reverse name, at "<reversed octets>.in-addr.arpa". */
  | { type: "PTR"; target: string }
  /** The server fails every query for the name (SERVFAIL). */
  | { type: "SERVFAIL" };
export type FakeZone = Record<string, FakeRecord[]>;

export type FakeDnsServer = {
  /** "127.0.0.1:port", ready for `setServers` or the check's `resolver` option. */
  address: string;
  /** Replace the zone (names are matched without case and trailing dot). */
  setZone(zone: FakeZone): void;
  close(): Promise<void>;
};

const { Packet } = dns2;
const key = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** A DNS character-string holds 255 bytes; longer values are split as DNS panels do (ASCII test data). */
const strings255 = (value: string) => value.match(/[\s\S]{1,255}/g) ?? [""];

function answer(name: string, record: FakeRecord) {
  const base = { name, class: Packet.CLASS.IN, ttl: 60 };
  switch (record.type) {
    case "TXT":
      return { ...base, type: Packet.TYPE.TXT, data: (Array.isArray(record.data) ? record.data : [record.data]).flatMap(strings255) };
    case "MX":
      return { ...base, type: Packet.TYPE.MX, exchange: record.exchange, priority: record.priority };
    case "CNAME":
      return { ...base, type: Packet.TYPE.CNAME, domain: record.target };
    case "A":
      return { ...base, type: Packet.TYPE.A, address: record.address };
    case "PTR":
      return { ...base, type: Packet.TYPE.PTR, domain: record.target };
    default:
      return null;
  }
}

export async function startFakeDnsServer(initial: FakeZone = {}): Promise<FakeDnsServer> {
  let zone = new Map<string, FakeRecord[]>();
  const setZone = (next: FakeZone) => {
    zone = new Map(Object.entries(next).map(([name, records]) => [key(name), records]));
  };
  setZone(initial);

  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const records = question ? zone.get(key(question.name)) : undefined;
    if (!question || !records) {
      response.header.rcode = 3; // NXDOMAIN
    } else if (records.some((r) => r.type === "SERVFAIL")) {
      response.header.rcode = 2;
    } else {
      const typeName = Object.entries(Packet.TYPE).find(([, code]) => code === question.type)?.[0];
      const cname = records.find((r) => r.type === "CNAME");
      const matching = cname && typeName !== "CNAME" ? [cname] : records.filter((r) => r.type === typeName);
      for (const record of matching) {
        const resource = answer(question.name, record);
        if (resource) response.answers.push(resource as never);
      }
    }
    void send(response);
  };

  // Resolvers retry over TCP, on the same port, when an answer does not fit a UDP
  // datagram (two DKIM keys do not): serve both, retrying if the TCP port is taken.
  for (let attempt = 0; ; attempt++) {
    const udp = dns2.createServer({ udp: true, handle });
    const port = (await udp.listen({ udp: { port: 0, address: "127.0.0.1" } })).udp?.port;
    if (!port) throw new Error("the fake DNS server did not report its port");
    const tcp = dns2.createServer({ tcp: true, handle });
    const listening = await Promise.race([
      tcp.listen({ tcp: { port, address: "127.0.0.1" } }).then(() => true),
      new Promise<false>((resolve) => tcp.once("error", () => resolve(false))),
    ]);
    if (listening) {
      const close = async () => {
        await Promise.all([udp.close(), tcp.close()]);
      };
      return { address: `127.0.0.1:${port}`, setZone, close };
    }
    await udp.close();
    if (attempt >= 4) throw new Error("no free port for the fake DNS server");
  }
}
