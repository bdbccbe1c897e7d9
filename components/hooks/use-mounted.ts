import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

/** False while the server renders and while the page hydrates, true after: for parts drawn in the browser only. */
export const useMounted = () => useSyncExternalStore(subscribeNever, () => true, () => false);
