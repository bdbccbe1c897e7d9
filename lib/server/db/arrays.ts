import "server-only";

/**
 * Values as one Postgres array literal (`{"a","b"}`), bound as a single parameter and cast
 * where it is used (`= any($1::text[])`). Drizzle spreads a JavaScript array into a list of
 * parameters, one per value, which makes a new statement for every length; and unlike a
 * JSON document unpacked by `jsonb_array_elements_text` (which the planner takes for 100
 * rows whatever it holds), an array's length is known to the planner, so a few ids are
 * looked up through the primary key instead of hashed against a scan of the table.
 */
export const textArray = (values: readonly string[]): string => `{${values.map((v) => `"${v.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
