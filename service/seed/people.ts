import { PROVIDERS, type ProviderKey } from "./providers";
import type { Random } from "./random";

/** One recipient of the demo: the same people get several messages, so each has a story. */
export type Person = {
  email: string;
  name: string;
  firstName: string;
  provider: ProviderKey;
  /** How likely this person opens what arrives (some open everything, some nothing). */
  opens: number;
  /** Relative share of the transactional mail (receipts, resets) this person causes. */
  activity: number;
  /** Milliseconds since the epoch; people who sign up inside the window get a welcome. */
  signedUpAt: number;
  /** Gets the weekly product digest. */
  digest: boolean;
};

const FIRST = [
  "Olivia", "Liam", "Emma", "Noah", "Ava", "Mateo", "Sophia", "Lucas", "Isabella", "Ethan", "Mia", "Leo", "Amelia", "Hugo",
  "Harper", "Elijah", "Chloe", "Arjun", "Priya", "Wei", "Yuki", "Fatima", "Omar", "Aisha", "Kofi", "Amara", "Sven", "Ingrid",
  "Mateus", "Camila", "Diego", "Lucia", "Jonas", "Lena", "Nikos", "Elena", "Tomás", "Sofía", "Rafael", "Nadia", "Daniel",
  "Hannah", "Samuel", "Grace", "Oscar", "Freya", "Felix", "Clara", "Ravi", "Meera", "Jin", "Hana", "Kenji", "Zara", "Malik",
] as const;
const LAST = [
  "Martin", "Garcia", "Smith", "Müller", "Rossi", "Dubois", "Nguyen", "Kim", "Patel", "Okafor", "Silva", "Kowalski", "Jensen",
  "Andersson", "Novak", "Fischer", "Lopez", "Schmidt", "Tanaka", "Chen", "Singh", "Haddad", "Mensah", "Larsen", "Costa", "Moreau",
  "Bianchi", "Horvat", "Yilmaz", "Ivanova", "O'Brien", "Murphy", "Walsh", "Bauer", "Keller", "Romero", "Santos", "Alvarez",
  "Sato", "Park", "Ali", "Hassan", "Nielsen", "Berg", "Lindqvist", "Fernandes", "Weber", "Wright", "Clarke", "Evans",
] as const;

/** Local parts as people choose them: ascii, lower case, sometimes with initials or a year. */
function localPart(random: Random, first: string, last: string): string {
  const ascii = (s: string) => s.normalize("NFD").replace(/[^A-Za-z]/g, "").toLowerCase();
  const f = ascii(first);
  const l = ascii(last);
  return random.weighted([
    [`${f}.${l}`, 5], [`${f}${l}`, 2], [`${f[0]}${l}`, 2], [`${f}_${l}`, 1], [`${f}.${l}${random.int(1, 99)}`, 2], [`${f}${random.int(1970, 2004)}`, 1],
  ] as const);
}

/**
 * `count` people with unique addresses, spread over the providers by their share. Some sign
 * up inside the window (`windowStart`..`windowEnd`), the rest before it.
 */
export function createPeople(random: Random, count: number, window: { start: number; end: number }, opts: { newShare: number; companyBias?: number; digestShare?: number }): Person[] {
  const people: Person[] = [];
  const taken = new Set<string>();
  const shares = PROVIDERS.map((p) => [p, p.key === "other" ? p.share * (opts.companyBias ?? 1) : p.share] as const);
  while (people.length < count) {
    const provider = random.weighted(shares);
    const firstName = random.pick(FIRST);
    const last = random.pick(LAST);
    const domain = random.weighted(provider.domains);
    const email = `${localPart(random, firstName, last)}@${domain}`;
    if (taken.has(email)) continue;
    taken.add(email);
    const joinsNow = random.chance(opts.newShare);
    // Opening habits are bimodal in real lists: many rarely open, a core opens most.
    const habit = random.weighted([[0.05, 3], [0.35, 3], [0.75, 3], [0.95, 1]] as const);
    people.push({
      email,
      name: `${firstName} ${last}`,
      firstName,
      provider: provider.key,
      opens: Math.min(1, habit * provider.openFactor),
      activity: random.logNormal(1, 0.8),
      signedUpAt: joinsNow ? random.between(window.start, window.end) : window.start - random.between(1, 700) * 86_400_000,
      digest: random.chance(opts.digestShare ?? 0),
    });
  }
  return people;
}
