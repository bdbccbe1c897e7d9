-- insight_dirty becomes a queue with a row per mark (lib/server/db/schema/insight.ts). Its
-- primary key was declared inline on message_id, so Postgres named it insight_dirty_pkey
-- (drizzle-kit cannot name it itself and leaves this statement to be written by hand).
ALTER TABLE "insight_dirty" DROP CONSTRAINT "insight_dirty_pkey";--> statement-breakpoint
ALTER TABLE "insight_dirty" ADD COLUMN "seq" bigserial PRIMARY KEY NOT NULL;
