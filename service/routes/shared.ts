import { z } from "zod";
import { errorBody } from "../../lib/schemas";

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
