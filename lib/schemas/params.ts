import { z } from "zod";
import { decodeParam } from "../http/decode-param";
import { emailAddress } from "./common";

/**
 * The kinds of path parameter our /api routes have, one schema each. A route names its
 * dynamic segments with these in `route(permission, { params: { … } }, fn)`; a value that
 * does not fit is a 400 naming the parameter before any query or service call. A value that
 * fits but names nothing the route knows keeps its 404.
 */

/**
 * `[project]`: the project's external id as the address carries it. route() decodes it and the
 * guard resolves it; an unknown, malformed or not granted project is one 404, which does not
 * tell who may see which projects (one too long to be any, over 200 characters each escaped:
 * 600, included — the guard finds none by it).
 */
export const projectSlug = z.string().min(1, { error: "is required" }).max(600, { error: "is not a project of this dashboard (too long)" });

const CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** An id the service handed out (message, contact, domain, template, webhook, API key, attachment): opaque to us, so only bounded. */
export const serviceId = z
  .string()
  .min(1, { error: "is required" })
  .max(200, { error: "must be at most 200 characters" })
  .regex(CONTROL, { error: "must not contain control characters" });

/** An id of one of the dashboard's own rows (user, project, batch job, template sample): letters, digits, dashes. */
export const recordId = z
  .string()
  .min(1, { error: "is required" })
  .max(100, { error: "must be at most 100 characters" })
  .regex(/^[A-Za-z0-9_-]+$/, { error: "may contain only letters, digits, dashes and underscores" });

/** `[email]`: an address in the path, decoded once (the dashboard's links escape it). */
export const emailParam = z.string().transform(decodeParam).pipe(emailAddress);
