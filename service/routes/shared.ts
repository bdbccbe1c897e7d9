import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import { errorBody, idParam, page } from "../../contract/wire";

/** The project headers, documented on the operations that list them. */
export const projectHeaders = z.object({
  "x-service-product": z.string().optional(),
  "x-service-sender": z.string().optional(),
});

export const idempotencyHeaders = z.object({
  "idempotency-key": z.string().min(1).max(255).optional(),
});

/** A JSON body in the OpenAPI document: `content` of a request or a response. */
export const json = <T>(schema: T) => ({ "application/json": { schema } });

/** A request body that must be there, as JSON. */
export const jsonBody = <T>(schema: T) => ({ required: true, content: json(schema) });

/** A documented answer with a JSON body. */
export const jsonAnswer = <T>(description: string, schema: T) => ({ description, content: json(schema) });

/** A documented error answer: every error has the same body (`{ error: { message, code, param } }`). */
export const errorResponse = (description: string) => ({ description, content: json(errorBody) });

/**
 * The error answers every operation may give. Routes spread it and add their own (404, 409…),
 * or say more precisely what a 403 means for them.
 */
export const errorResponses = {
  400: errorResponse("Invalid request, naming the field"),
  401: errorResponse("Missing or unknown API key"),
  403: errorResponse("The key may not do this"),
};

/** The error answers of an operation on one resource by id: the common ones and a 404. */
export const notFoundResponses = (description: string) => ({ ...errorResponses, 404: errorResponse(description) });

/**
 * `createRoute` for the operations of one file: they share one tag (the resource), so each
 * definition says only its method, path, request and answers.
 */
export const routesTagged = (tag: string) =>
  <P extends string, R extends Omit<RouteConfig, "path" | "tags"> & { path: P }>(config: R) =>
    createRoute({ ...config, tags: [tag] });

/**
 * The request and answers of a GET of a project's paged list, newest first: a page query
 * (with the list's own filters) and the project headers in, a page of `item` out.
 */
export const pagedList = <Q extends z.ZodObject, T extends z.ZodType>(query: Q, item: T, description: string) => ({
  request: { query, headers: projectHeaders },
  responses: { 200: jsonAnswer(description, page(item)), ...errorResponses },
});

/**
 * The request and answers of a POST that creates one of a project's resources: the project
 * headers and a JSON body in, 201 with the resource out; `errors` adds the operation's own (409…).
 */
export const createdInProject = <B, T, E extends object = object>(body: B, item: T, description: string, errors?: E) => ({
  request: { headers: projectHeaders, body: jsonBody(body) },
  responses: { 201: jsonAnswer(description, item), ...errorResponses, ...(errors as E) },
});

/**
 * The request and answers of an operation on one resource named by its `{id}`: 200 with
 * `item` out, or a 404 saying `notFound`.
 */
export const oneById = <T>(item: T, description: string, notFound: string) => ({
  request: { params: idParam },
  responses: { 200: jsonAnswer(description, item), ...notFoundResponses(notFound) },
});
