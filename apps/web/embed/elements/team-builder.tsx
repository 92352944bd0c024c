import { type ReactElement, useEffect, useRef, useState } from "react";
import { parseFrameMessage } from "../messages";
import type { WidgetProps } from "../runtime";
import { intOf, themeOf } from "./common";

/** Height before the builder reports its own (px): about a screen of a phone. */
export const FRAME_START_HEIGHT = 480;
/**
 * The frame grows with its content up to about a screen (at least 480 px), then the builder
 * scrolls inside it: a full racer list would otherwise make the partner's page thousands of
 * pixels long (docs/decisions/0091-embed-origin-check.md).
 */
export const FRAME_MAX_HEIGHT = "max(480px, 85vh)";

/**
 * `<gf-team-builder partner event competition>`: the team builder for readers, an iframe on the game's
 * origin (it needs the reader's sign-in, which a script on the partner's page must never see).
 */
export function GfTeamBuilder({ ctx, attrs, host }: WidgetProps): ReactElement {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(FRAME_START_HEIGHT);
  const origin = new URL(ctx.base).origin;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // Only our frame, from our origin, with a well-formed message.
      if (event.origin !== origin || event.source !== frame.current?.contentWindow) return;
      const message = parseFrameMessage(event.data);
      if (!message) return;
      if (message.type === "gf:resize") setHeight(Math.ceil(message.height));
      else {
        host.dispatchEvent(
          new CustomEvent("gf-team-saved", {
            detail: { eventId: message.eventId },
            bubbles: true,
            composed: true,
          }),
        );
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [host, origin]);

  const partner = attrs.partner?.trim();
  if (!partner) {
    return (
      <div className="gf-root" data-theme={themeOf(attrs)}>
        <p className="gf-status gf-status--error" role="alert">
          Set the partner attribute (your publishable key) to show the team builder.
        </p>
      </div>
    );
  }
  const params = new URLSearchParams({ partner, origin: location.origin });
  const event = intOf(attrs.event);
  if (event) params.set("event", String(event));
  else if (attrs.competition) params.set("competition", attrs.competition);
  const theme = themeOf(attrs);
  if (theme) params.set("theme", theme);
  return (
    <iframe
      ref={frame}
      src={`${ctx.base}/embed/team-setup?${params}`}
      title="Gravity Fantasy team builder"
      style={{
        display: "block",
        width: "100%",
        height: `min(${height}px, ${FRAME_MAX_HEIGHT})`,
        border: 0,
      }}
    />
  );
}
