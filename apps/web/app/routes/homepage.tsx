import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Your events · Gravity Fantasy" }];

/** Where a login lands (spec): the home screen, the event list with a greeting. */
export { default, loader } from "./_index";
