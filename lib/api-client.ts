import type { z } from "zod";
import { AppError, appErrorFromResponse } from "@/lib/errors";

/**
 * The browser's one way to call our own /api routes. A failed call always throws an AppError
 * (message, code, param, correlationId) so every screen shows errors the same way, and a
 * form can put `param` errors at the field they name.
 */
export type ApiRequest<S extends z.ZodType = z.ZodType> = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  /** Appended to the path; undefined, null and "" values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * The answer's shape, from the resource's file in lib/schemas (the same schema types the
   * route's output), loaded with `lazySchema`; an answer that does not match throws an
   * AppError `invalid_response`. Routes that answer 204 take `noContent`.
   */
  schema: () => Promise<S>;
};

/**
 * A schema of lib/schemas, loaded while the first call that needs it waits for its answer:
 * zod stays out of every screen's first load (components/common/first-load.test.ts).
 */
export const lazySchema =
  <M, K extends keyof M>(load: () => Promise<M>, key: K) =>
  (): Promise<M[K]> =>
    load().then((module) => module[key]);

/** The schema of an answer without a body (204). */
export const noContent = lazySchema(() => import("@/lib/schemas/common"), "noContent");

export const NETWORK_ERROR_MESSAGE = "Could not reach the dashboard server. Check your connection and try again.";

export function buildUrl(path: string, query?: ApiRequest["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  if (!qs) return path;
  return path + (path.includes("?") ? "&" : "?") + qs;
}

export async function apiFetch<S extends z.ZodType>(path: string, request: ApiRequest<S>): Promise<z.output<S>> {
  const { method = "GET", body, query, headers, signal } = request;
  // Loaded alongside the request, not after it.
  const schema = request.schema();
  schema.catch(() => undefined);
  let res: Response;
  try {
    res = await fetch(buildUrl(path, query), {
      method,
      signal,
      credentials: "same-origin",
      // Authenticated data must never come from a shared or stale cache.
      cache: "no-store",
      headers: {
        accept: "application/json",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new AppError(0, "network_error", NETWORK_ERROR_MESSAGE);
  }

  if (!res.ok) {
    const error = await appErrorFromResponse(res);
    // An expired session: go to sign-in and come back here afterwards, rather than showing
    // a "sign in to continue" error on a screen that cannot be used anyway.
    if (res.status === 401 && typeof window !== "undefined") {
      const back = window.location.pathname + window.location.search;
      window.location.assign(`/login?callbackUrl=${encodeURIComponent(back)}`);
    }
    throw error;
  }

  const text = res.status === 204 ? "" : await res.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new AppError(res.status, "invalid_response", UNREADABLE);
    }
  }
  const parsed = (await schema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.map(String).join(".")}: ` : "";
    throw new AppError(res.status, "invalid_response", `${UNREADABLE} (${where}${issue?.message ?? "unexpected shape"})`);
  }
  return parsed.data;
}

const UNREADABLE = "The dashboard server sent a response that could not be read. Try again.";

type Options<S extends z.ZodType> = Omit<ApiRequest<S>, "method" | "body">;

export const api = {
  get: <S extends z.ZodType>(path: string, request: Options<S>) => apiFetch(path, { ...request, method: "GET" }),
  post: <S extends z.ZodType>(path: string, body: unknown, request: Options<S>) => apiFetch(path, { ...request, method: "POST", body }),
  put: <S extends z.ZodType>(path: string, body: unknown, request: Options<S>) => apiFetch(path, { ...request, method: "PUT", body }),
  patch: <S extends z.ZodType>(path: string, body: unknown, request: Options<S>) => apiFetch(path, { ...request, method: "PATCH", body }),
  delete: <S extends z.ZodType>(path: string, request: Options<S>) => apiFetch(path, { ...request, method: "DELETE" }),
};
