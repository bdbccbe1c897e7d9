-- Three foreign keys were checked row by row, a look-up and a row lock for each: every address
-- of every recorded message, every row of a stored batch file. They go; what they did on delete
-- stays, done once per statement by the triggers below. The rows are only ever written together
-- with what they point to (lib/server/messages/record.ts, lib/server/batches/store.ts).
ALTER TABLE "batch_rows" DROP CONSTRAINT "batch_rows_job_id_batch_jobs_id_fk";
--> statement-breakpoint
ALTER TABLE "indexed_messages" DROP CONSTRAINT "indexed_messages_sent_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "indexed_recipients" DROP CONSTRAINT "indexed_recipients_message_id_indexed_messages_id_fk";
--> statement-breakpoint
CREATE FUNCTION "indexed_messages_drop_recipients"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "indexed_recipients" r USING gone g WHERE r."message_id" = g."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "indexed_messages_drop_recipients" AFTER DELETE ON "indexed_messages"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "indexed_messages_drop_recipients"();
--> statement-breakpoint
CREATE FUNCTION "batch_jobs_drop_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "batch_rows" r USING gone g WHERE r."job_id" = g."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "batch_jobs_drop_rows" AFTER DELETE ON "batch_jobs"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "batch_jobs_drop_rows"();
--> statement-breakpoint
CREATE FUNCTION "users_clear_sent_by"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "indexed_messages" m SET "sent_by" = NULL FROM gone g WHERE m."sent_by" = g."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_clear_sent_by" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "users_clear_sent_by"();
