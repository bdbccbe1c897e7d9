import type { FieldValues, Resolver } from "react-hook-form";

/**
 * A form resolver whose schema library (zod, the resolver, the shared schema) loads on the
 * first validation — a blur or a submit — rather than with the screen. It answers exactly as
 * the resolver it loads; the first validation waits for the download.
 *
 *   resolver: lazyResolver(async () => {
 *     const [{ zodResolver }, { replyForm }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/schemas/messages-index")]);
 *     return zodResolver(replyForm);
 *   })
 */
export function lazyResolver<TFieldValues extends FieldValues, TContext = unknown, TTransformed = TFieldValues>(
  load: () => Promise<Resolver<TFieldValues, TContext, TTransformed>>,
): Resolver<TFieldValues, TContext, TTransformed> {
  let loading: Promise<Resolver<TFieldValues, TContext, TTransformed>> | undefined;
  return async (values, context, options) => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined; // a failed download is tried again on the next validation
      throw error;
    });
    return (await loading)(values, context, options);
  };
}
