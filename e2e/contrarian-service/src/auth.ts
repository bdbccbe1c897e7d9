import type { MiddlewareHandler } from "hono";
import { sha256 } from "./ids";
import { forbiddenText, TextProblem } from "./problems";
import type { Env } from "./runtime";

/**
 * Fixed-window rate limit per presented key (not a token bucket): over the limit, a plain-text
 * 429 whose Retry-After is an HTTP date, the end of the window.
 */
export function rateLimit(): MiddlewareHandler<Env> {
  const windows = new Map<string, { start: number; count: number }>();
  return async (c, next) => {
    const { rateLimit: limit, rateWindowMs } = c.get("rt").config;
    const who = c.req.header("Authorization") ?? "anonymous";
    const now = Date.now();
    let window = windows.get(who);
    if (!window || now - window.start >= rateWindowMs) {
      window = { start: now, count: 0 };
      windows.set(who, window);
    }
    window.count++;
    if (window.count > limit) {
      const end = new Date(Math.ceil((window.start + rateWindowMs) / 1000) * 1000);
      throw new TextProblem(429, `Slow down: at most ${limit} requests per ${rateWindowMs / 1000} s for one key.`, { "Retry-After": end.toUTCString() });
    }
    await next();
  };
}

/** Bearer key → the key record; anything else is a plain-text 403. */
export function authenticate(): MiddlewareHandler<Env> {
  return async (c, next) => {
    const header = c.req.header("Authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw forbiddenText("Forbidden: send your API key as Authorization: Bearer <key>.");
    const hash = sha256(match[1]);
    const key = c.get("rt").store.keys.find((k) => k.hash === hash);
    if (!key) throw forbiddenText("Forbidden: this API key is not valid.");
    c.set("key", key);
    await next();
  };
}
