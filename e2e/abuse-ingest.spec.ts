import { percentile, sender } from "../scripts/lib/ingest-load";
import { sendMessage } from "../scripts/lib/service-api";
import { expect, test } from "./fixtures";
import { call } from "./helpers/abuse-http";
import { flood, ingestPath, serviceEvent, signed, type FloodAnswer } from "./helpers/abuse-ingest";
import { startAbuseTarget, type AbuseTarget } from "./helpers/abuse-target";
import { NAMES_A_LIMIT, underAttack } from "./helpers/abuse-watch";
import { run, serviceKey } from "./support/run";
import { unique } from "./support-helpers";
import { budget } from "./support/budget";

/**
 * Issue 25, the abuse suite, part one: the public ingest route (findings 1, 7, 10 and 11),
 * replayed against the built dashboard in front of the running local service. Each attack is
 * refused or bounded, the dashboard's process survives it, /api/health answers within 1 s at
 * p99 throughout, and correctly signed deliveries keep being taken.
 *
 * @e2e-alone: it measures latency (the dashboard's, not that of browser lanes beside it), so
 * the harness runs it after everything else of the run has ended (scripts/lib/e2e-lanes.ts).
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The slowest answer a signed delivery may get while the flood runs. Its first moments cost
 * one delivery 0.4-1.2 s on the 2-core machine (full runs: 1,055 and 1,189 ms; alone: 382-1,045
 * ms; every other attempt 20-370 ms, /api/health meanwhile at most 60-190 ms), and the p99 of
 * the four to eight attempts a flood lasts is their maximum. A stall (the finding: a crash, or
 * deliveries waiting on the flood's bodies) is tens of seconds or no answer at all.
 */
const SIGNED_DURING_FLOOD_MS = 2_000;

let target: AbuseTarget;
test.beforeAll(async () => {
  test.setTimeout(budget(120_000));
  target = await startAbuseTarget();
});
test.afterAll(async () => {
  await target?.dispose();
});

const access = () => ({ serviceURL: run.serviceURL, key: serviceKey(), project: target.project });
const found = async (q: string) => ((await target.admin.api("GET", `/api/p/${encodeURIComponent(target.project)}/messages?q=${encodeURIComponent(q)}`)).json as { data?: unknown[] } | null)?.data?.length ?? -1;
const ingest = (d: { body: string; headers: Record<string, string> }) => call(target.baseURL, "POST", ingestPath(target.project), { body: d.body, headers: d.headers, timeoutMs: 20_000 });

/**
 * Deliveries the service would send, signed, one every `gapMs` until stopped; a 429 is retried
 * after a second, as a faithful sender would. Once `time()` is called, each delivery's outcome
 * and each attempt's answer time are kept; `firstAnswer` resolves when the first is answered.
 */
function signedStream(messageId: string, gapMs = 150) {
  const post = sender(target.baseURL, 4);
  const finals: number[] = [];
  const attemptMs: number[] = [];
  let going = true;
  let timed = false;
  let answered = () => {};
  const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
  const loop = (async () => {
    while (going) {
      let status = 0;
      const counted = timed;
      for (let attempt = 0; attempt < 4; attempt++) {
        const d = signed(target.secret, serviceEvent("delivery", messageId, { status: "delivered" }));
        const answer = await post.post(ingestPath(target.project), d.body, d.headers);
        if (counted) attemptMs.push(answer.ms);
        status = answer.status;
        if (status !== 429) break;
        await sleep(1_000);
      }
      if (counted) finals.push(status);
      answered();
      await sleep(gapMs);
    }
  })();
  return {
    firstAnswer,
    time: () => void (timed = true),
    stop: async () => {
      going = false;
      await loop;
      post.close();
      return { finals, inOrder: [...attemptMs], attemptMs: attemptMs.sort((a, b) => a - b) };
    },
  };
}

test("finding 1: a flood of 30 parallel unsigned 19.5 MB POSTs to the ingest route is refused, and signed deliveries are still taken", async () => {
  test.setTimeout(budget(90_000));
  const tag = unique();
  const first = await sendMessage(access(), { to: `flood+${tag}@example.com`, subject: `Abuse flood ${tag}` });
  const stream = signedStream(first);
  // The sender's first delivery opens its connections before the flood: what is timed is the
  // flood's effect (started with it, that first attempt took 648-1,055 ms, the slowest of every
  // run and a full run's p99 over seven attempts; started ahead, 109 ms).
  await stream.firstAnswer;
  stream.time();
  const during: string[] = [];
  let answers: FloodAnswer[];
  try {
    answers = await underAttack(target, "ingest flood", async () => {
      // Long enough for a few signed deliveries, however soon the flood is refused.
      const atLeast = sleep(2_500);
      // Ten declare their size, ten are chunked, ten chunked with a signature that cannot
      // match; each sent three times over (one wave alone left today's dashboard alive).
      const forged = signed("whsec_" + Buffer.alloc(32, 9).toString("base64"), "{}").headers;
      const flooding = flood(`${target.baseURL}${ingestPath(target.project)}`, {
        count: 30,
        rounds: 3,
        bytes: 19.5 * 1024 * 1024,
        chunked: (i) => i >= 10,
        headers: (i) => (i >= 20 ? forged : {}),
        deadlineMs: 30_000,
      });
      // Meanwhile the service sends mail, whose events it delivers to the dashboard signed.
      for (let i = 0; i < 3; i++) {
        const to = `during+${tag}-${i}@example.com`;
        await sendMessage(access(), { to, subject: `Abuse flood ${tag} ${i}` });
        during.push(to);
        await sleep(300);
      }
      await atLeast;
      return flooding;
    });
  } finally {
    const { finals, inOrder, attemptMs } = await stream.stop();
    console.log(`signed deliveries during the flood: ${finals.length}, answered ${[...new Set(finals)].join(", ")}; each attempt's answer p50 ${Math.round(percentile(attemptMs, 50))} ms, p99 ${Math.round(percentile(attemptMs, 99))} ms (in order: ${inOrder.map(Math.round).join(", ")} ms)`);
    expect.soft(finals.length, "signed deliveries were sent during the flood").toBeGreaterThanOrEqual(3);
    expect.soft(finals.filter((s) => s < 200 || s > 299), "every signed delivery during the flood was taken (2xx)").toEqual([]);
    expect.soft(percentile(attemptMs, 99), "signed deliveries were answered promptly (p99, ms)").toBeLessThan(SIGNED_DURING_FLOOD_MS);
  }
  // A refusal is a 4xx, or the connection closed while the client was still writing (the
  // answer then lost with it); a timeout, a refused connection or a 5xx is not.
  const outcome = (a: FloodAnswer) => (a.status ? `HTTP ${a.status}` : /EPIPE|ECONNRESET|socket hang up/.test(a.error ?? "") ? "closed while sending" : (a.error ?? "?").replace(/\d+/g, "#"));
  const tally = (list: FloodAnswer[]) => {
    const counts = new Map<string, number>();
    for (const a of list) counts.set(outcome(a), (counts.get(outcome(a)) ?? 0) + 1);
    return [...counts].map(([k, n]) => `${k} ×${n}`);
  };
  console.log(`flood answers: ${tally(answers).join(", ")}; slowest ${Math.max(...answers.map((a) => a.ms))} ms`);
  const refused = (a: FloodAnswer) => (a.status >= 400 && a.status < 500) || outcome(a) === "closed while sending";
  expect.soft(tally(answers.filter((a) => !refused(a))), "flood requests neither refused nor cut off").toEqual([]);
  expect.soft(answers.filter((a) => a.status >= 400).length, "the flood was answered").toBeGreaterThan(0);
  for (const a of answers.filter((x) => x.status === 413 || x.status === 429)) expect.soft(a.text, `a ${a.status} names the limit`).toMatch(NAMES_A_LIMIT);
  for (const a of answers.filter((x) => x.status === 429)) expect.soft(a.retryAfter, "a 429 says when to retry").toMatch(/^\d+$/);
  // The mail sent during the flood reached the index through the event stream (asked only
  // of a dashboard still running: one that died has failed above already).
  if (target.alive().alive) for (const to of during) await expect.poll(() => found(to), { message: `${to} is searchable`, timeout: budget(30_000) }).toBeGreaterThanOrEqual(1);
});

test("finding 7: unsigned and wrongly signed POSTs do not switch a live stream to polling", async () => {
  const tag = unique();
  const id = await sendMessage(access(), { to: `mode+${tag}@example.com`, subject: `Abuse mode ${tag}` });
  const statusOf = async () => (await target.admin.api("GET", `/api/p/${encodeURIComponent(target.project)}/event-stream/status`)).json as { mode: string; code: string; health: { refusedCount: number } };
  expect((await ingest(signed(target.secret, serviceEvent("delivery", id, { status: "delivered" })))).status).toBe(204);
  await expect.poll(async () => (await statusOf()).code, { timeout: budget(10_000) }).toBe("live");

  await underAttack(target, "unverified deliveries", async () => {
    const body = JSON.stringify(serviceEvent("bounce", id));
    const forged = signed("whsec_" + Buffer.alloc(32, 7).toString("base64"), body);
    for (const headers of [{ "content-type": "application/json" }, { "content-type": "application/json" }, { "content-type": "application/json" }, forged.headers, forged.headers, forged.headers]) {
      const answer = await call(target.baseURL, "POST", ingestPath(target.project), { body, headers, timeoutMs: 10_000 });
      expect.soft(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect.soft(answer.status, answer.text).toBeLessThan(500);
    }
  });
  const now = await statusOf();
  console.log(`after 6 unverified POSTs: mode ${now.mode} (${now.code}), refused ${now.health.refusedCount}`);
  expect.soft(now.mode, "right after").toBe("live");
  // The health counters are written every few seconds: still live once they are.
  await sleep(3_500);
  expect((await statusOf()).mode, "after the counters are written").toBe("live");
});

test("finding 10: a signed delivery of 5,000 events is acknowledged as unusable naming the limit, none recorded, and messages the service disowns do not stay", async () => {
  test.setTimeout(budget(90_000));
  const tag = unique();
  const ghost = `ghost+${tag}@example.com`;
  const list = Array.from({ length: 5_000 }, (_, i) => ({ type: "sent", data: { messageId: `ghost-${tag}-${i}`, to: [ghost] } }));
  const answer = await underAttack(target, "5,000 events", () => ingest(signed(target.secret, list)));
  console.log(`5,000 events in one delivery (${Math.round(JSON.stringify(list).length / 1024)} KB): HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
  // A 202, not a 4xx: a Standard Webhooks sender retries any non-2xx (the interface does not
  // say otherwise), and the same body would be refused each time.
  expect.soft(answer.status, answer.text).toBe(202);
  expect.soft(JSON.parse(answer.text || "{}"), answer.text).toMatchObject({ received: true, used: false });
  expect.soft(answer.text).toMatch(NAMES_A_LIMIT);
  expect.soft(await found(ghost), "messages of the unusable delivery in the index").toBe(0);

  // A message the service does hand out, named by a delivery and so read back: it shows the
  // service reads this project's messages, so its refusals of the others are about them
  // (lib/server/message-index/disowned.ts), whichever tests ran before this one.
  const known = await sendMessage(access(), { to: `known+${tag}@example.com`, subject: `Abuse known ${tag}` });
  expect((await ingest(signed(target.secret, serviceEvent("sent", known, { status: "sent" })))).status).toBe(204);
  // Events of messages the service does not know: their placeholders go once it keeps refusing them.
  const disowned = `disowned+${tag}@example.com`;
  const few = [0, 1, 2].map((i) => serviceEvent("sent", `disowned-${tag}-${i}`, { to: disowned, status: "sent" }));
  const taken = await ingest(signed(target.secret, few));
  expect(taken.status, taken.text).toBeLessThan(300);
  await expect.poll(() => found(disowned), { message: "placeholders the service keeps refusing are removed", timeout: budget(30_000) }).toBe(0);
});

test("finding 11: a signed delivery holding \\u0000 is taken, not answered 500", async () => {
  const tag = unique();
  const id = await sendMessage(access(), { to: `nul+${tag}@example.com`, subject: `Abuse NUL ${tag}` });
  const deliveries = [
    serviceEvent("delivery", id, { subject: `NUL \u0000 in the subject ${tag}`, status: "delivered" }),
    serviceEvent("delivery", `nul\u0000${tag}`, { to: `nul+${tag}@example.com` }),
    { ...serviceEvent("open", id), data: { ...serviceEvent("open", id).data, eventData: { "user\u0000agent": "x\u0000y" } } },
  ];
  await underAttack(target, "NUL deliveries", async () => {
    for (const [i, payload] of deliveries.entries()) {
      const answer = await ingest(signed(target.secret, payload));
      expect.soft(answer.status, `delivery ${i}: ${answer.text}`).toBeGreaterThanOrEqual(200);
      expect.soft(answer.status, `delivery ${i}: ${answer.text}`).toBeLessThan(300);
    }
  });
});
