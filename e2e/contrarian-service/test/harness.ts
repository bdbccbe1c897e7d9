import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createContrarian, type Contrarian } from "../src/app";
import { readConfig } from "../src/config";
import { callInit, readAnswer, type CallOptions } from "../recording/call";

export const ACCOUNT_KEY = "test-account-key";
export const [ALPHA, BETA] = ["alpha.one", "beta~two"];

/** A contrarian in-process with fast timers; `call` goes through its real routing and middleware. */
export function startContrarian(env: Record<string, string> = {}) {
  const contrarian: Contrarian = createContrarian(
    readConfig({
      CONTRARIAN_ACCOUNT_KEY: ACCOUNT_KEY,
      CONTRARIAN_PROJECTS: `${ALPHA},${BETA}`,
      CONTRARIAN_STEP_MS: "10",
      CONTRARIAN_DOMAIN_VERIFY_MS: "30",
      CONTRARIAN_WEBHOOK_RETRY_MS: "20,40",
      ...env,
    }),
    () => "http://contrarian.test",
  );
  async function call(method: string, path: string, opts: CallOptions = {}) {
    const init = callInit(method, { ...opts, key: opts.key === undefined ? ACCOUNT_KEY : opts.key, project: opts.project === undefined ? ALPHA : opts.project });
    return readAnswer(await contrarian.app.request(path, init));
  }
  return { ...contrarian, call };
}

export type TestContrarian = ReturnType<typeof startContrarian>;

export const send = (t: TestContrarian, to: string, extra: Record<string, unknown> = {}, opts: Parameters<TestContrarian["call"]>[2] = {}) =>
  t.call("POST", "/v1/emails", { ...opts, body: { from: { email: "hi@mail.alpha-one.example" }, to: [{ email: to }], subject: "Hello", text: "Hi", ...extra } });

/** Polls until `check` holds (the lifecycle runs on timers). */
export async function until<T>(read: () => Promise<T> | T, check: (v: T) => boolean, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A real HTTP receiver for webhook deliveries; `answer` picks the status of each. */
export async function receiver(answer: (n: number) => number = () => 204) {
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(answer(received.length)).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
