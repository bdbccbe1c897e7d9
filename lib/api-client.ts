import type { z } from "zod";
import { AppError, appErrorFromResponse } from "@/lib/errors";

/**
 * The browser's one way to call our own /api routes. A failed call always throws an AppError
 * (message, code, param, correlationId) so every screen shows errors the same way, and a
 * form can put `param` errors at the field they name.
 */
export type ApiRequest = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  /** Appended to the path; undefined, null and "" values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Parses the response; without it the JSON is returned as is. */
  schema?: z.ZodType;
};

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

export async function apiFetch<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
  const { method = "GET", body, query, headers, signal, schema } = request;
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

  if (res.status === 204) return undefined as T;
  const text = await res.text();
  if (!text) return undefined as T;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError(res.status, "invalid_response", "The dashboard server sent a response that could not be read. Try again.");
  }
  return (schema ? schema.parse(json) : json) as T;
}

export const api = {
  get: <T = unknown>(path: string, request?: Omit<ApiRequest, "method" | "body">) => apiFetch<T>(path, { ...request, method: "GET" }),
  post: <T = unknown>(path: string, body?: unknown, request?: Omit<ApiRequest, "method" | "body">) => apiFetch<T>(path, { ...request, method: "POST", body }),
  put: <T = unknown>(path: string, body?: unknown, request?: Omit<ApiRequest, "method" | "body">) => apiFetch<T>(path, { ...request, method: "PUT", body }),
  patch: <T = unknown>(path: string, body?: unknown, request?: Omit<ApiRequest, "method" | "body">) => apiFetch<T>(path, { ...request, method: "PATCH", body }),
  delete: <T = unknown>(path: string, request?: Omit<ApiRequest, "method" | "body">) => apiFetch<T>(path, { ...request, method: "DELETE" }),
};
