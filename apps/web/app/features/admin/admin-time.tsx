import { DEFAULT_TIME_ZONE } from "@game/core/dates";
import { useRouteLoaderData } from "@remix-run/react";
import { DateTime } from "~/components/date-time";

/**
 * A moment on an admin page, in the game's one date format and the admin's time zone (the
 * dashboard frame's loader reads it, `routes/admin.tsx`). `day` drops the clock.
 */
export function AdminTime(props: { value: string | Date; day?: boolean }) {
  const zone =
    useRouteLoaderData<{ timeZone?: string }>("routes/admin")?.timeZone ?? DEFAULT_TIME_ZONE;
  return <DateTime value={props.value} timeZone={zone} day={props.day} />;
}
