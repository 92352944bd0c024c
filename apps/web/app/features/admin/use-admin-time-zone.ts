import { useEffect, useState } from "react";

/**
 * The zone the admin's date inputs are in: "UTC" on the server and before hydration (so a form
 * posted without JavaScript is read in UTC, as its label says), the admin's own zone afterwards.
 * Forms post it in a hidden `timeZone` field, read with `fromLocalInput` (./time).
 */
export function useAdminTimeZone(): string {
  const [zone, setZone] = useState("UTC");
  useEffect(() => {
    const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (local) setZone(local);
  }, []);
  return zone;
}
