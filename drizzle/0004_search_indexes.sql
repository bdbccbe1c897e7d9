DROP INDEX "indexed_messages_project_created_idx";--> statement-breakpoint
DROP INDEX "indexed_messages_project_status_created_idx";--> statement-breakpoint
DROP INDEX "indexed_messages_unsettled_idx";--> statement-breakpoint
DROP INDEX "indexed_recipients_lookup_idx";--> statement-breakpoint
CREATE INDEX "indexed_messages_tags_idx" ON "indexed_messages" USING gin ("tags" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "indexed_messages_subject_trgm_idx" ON "indexed_messages" USING gin ("subject" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "indexed_messages_from_trgm_idx" ON "indexed_messages" USING gin ("from_address" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "indexed_messages_project_created_idx" ON "indexed_messages" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "indexed_messages_project_status_created_idx" ON "indexed_messages" USING btree ("project_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "indexed_messages_unsettled_idx" ON "indexed_messages" USING btree ("project_id","created_at") WHERE status not in ('delivered', 'bounced', 'complained', 'rejected', 'failed', 'received', 'canceled');--> statement-breakpoint
CREATE INDEX "indexed_recipients_lookup_idx" ON "indexed_recipients" USING btree ("project_id","email","created_at");