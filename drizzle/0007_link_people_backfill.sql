-- The people rollup of the clickers already recorded (lib/server/db/schema/insight.ts):
-- per project, link and hour of each recipient's newest click.
INSERT INTO "insight_link_people_hourly" ("project_id", "link", "hour", "people")
SELECT "project_id", "link", (date_trunc('hour', "last_at" at time zone 'UTC') at time zone 'UTC'), count(*)::int
  FROM "insight_link_recipients"
 GROUP BY 1, 2, 3
ON CONFLICT ("project_id", "link", "hour") DO NOTHING;
