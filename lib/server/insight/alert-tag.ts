/**
 * The tag on the dashboard's own alert emails. Insight leaves them out of the project's
 * figures: an alert about the bounce rate must not move the bounce rate.
 */
export const ALERT_TAG = { name: "dashboard", value: "alert" } as const;
