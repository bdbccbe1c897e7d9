ALTER TABLE "dmarc_reports" ADD COLUMN "record_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "dmarc_reports_arrival_idx" ON "dmarc_reports" USING btree ("project_id","domain","received_at");--> statement-breakpoint
CREATE INDEX "dmarc_reports_received_idx" ON "dmarc_reports" USING btree ("received_at");