import dns2 from "dns2";

type Resource = InstanceType<typeof dns2.Packet>["answers"][number];

/** A record as served by the test DNS server. */
export type ZoneRecord = { name: string; type: "TXT" | "MX" | "CNAME"; value: string; priority?: number };

/**
 * A real DNS server on 127.0.0.1 (UDP, a free port) answering from a zone the test sets,
 * so the domain checker is tested through node's resolver, not a stub.
 * Unknown names answer NXDOMAIN; TXT values are split into 255-byte strings like a real zone.
 */
const NXDOMAIN = 3; // RFC 1035 RCODE (the package's typings lack Packet.RCODE)

export async function startDnsServer(initial: ZoneRecord[] = []) {
  let zone = initial;
  const { Packet } = dns2;
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.toLowerCase().replace(/\.$/, "");
      queries.push(name);
      const atName = zone.filter((r) => r.name.toLowerCase() === name);
      if (atName.length === 0) response.header.rcode = NXDOMAIN;
      const answer = (r: Partial<Resource>) => response.answers.push(r as Resource);
      for (const r of atName.filter((r) => Packet.TYPE[r.type] === question.type)) {
        const base = { name: question.name, type: Packet.TYPE[r.type], class: Packet.CLASS.IN, ttl: 60 };
        if (r.type === "TXT") answer({ ...base, data: r.value.match(/.{1,255}/gs) ?? [""] });
        else if (r.type === "MX") answer({ ...base, exchange: r.value, priority: r.priority ?? 10 });
        else answer({ ...base, domain: r.value });
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return {
    address: `127.0.0.1:${addresses.udp!.port}`,
    queries,
    setZone(records: ZoneRecord[]) {
      zone = records;
    },
    close: () => server.close(),
  };
}
