import { formatDate, formatDateTime } from "@game/core/dates";
import { useTimeZone } from "~/utils/time-zone";

/**
 * A moment for people: "Sunday 20 June 2027, 07:00 CEST" in the reader's zone (`timeZone` is the
 * zone the server wrote the page in; the browser's own after hydration). `day` drops the clock.
 */
export function DateTime(props: { value: string | Date; timeZone: string; day?: boolean }) {
  const zone = useTimeZone(props.timeZone);
  const date = new Date(props.value);
  const valid = !Number.isNaN(date.getTime());
  return (
    <time dateTime={valid ? date.toISOString() : undefined}>
      {props.day ? formatDate(date, zone) : formatDateTime(date, zone)}
    </time>
  );
}
