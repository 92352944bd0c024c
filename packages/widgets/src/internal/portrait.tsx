import { type ReactElement, useEffect, useRef, useState } from "react";
import { portraitUrl } from "../format.js";
import { racerAvatar } from "./avatar.js";
import { useOptionalGameClient } from "./client-context.js";
import { cx } from "./common.js";

export interface PortraitProps {
  picture?: string | null | undefined;
  /** The racer's names and nation: a racer without a portrait gets their generated avatar. */
  firstName?: string | undefined;
  lastName?: string | undefined;
  origin?: string | null | undefined;
  imageBase?: string | null | undefined;
  /** `large`: the 480 px square (a profile), else the 128 px thumbnail. */
  size?: "thumb" | "large" | undefined;
  /** An image instead of the generated avatar (or the silhouette when no name is given). */
  placeholderSrc?: string | undefined;
  className?: string | undefined;
}

/** The generic rider silhouette used when there is no portrait (decorative). */
export function PlaceholderPortrait({
  className,
}: {
  className?: string | undefined;
}): ReactElement {
  return (
    <svg
      className={cx("gf-portrait gf-portrait--placeholder", className)}
      viewBox="0 0 40 40"
      aria-hidden="true"
      focusable="false"
      data-placeholder=""
    >
      <circle cx="20" cy="15" r="7" />
      <path d="M6 38c1-8 7-13 14-13s13 5 14 13z" />
    </svg>
  );
}

/**
 * A racer's generated avatar: their initials on their own colour pair (the same everywhere, see
 * `avatar.ts`), drawn inline so it costs no request. Decorative: the name is always next to it.
 */
export function AvatarPortrait({
  firstName,
  lastName,
  origin,
  className,
}: {
  firstName: string;
  lastName: string;
  origin?: string | null | undefined;
  className?: string | undefined;
}): ReactElement {
  const avatar = racerAvatar({ firstName, lastName, origin });
  return (
    <svg
      className={cx("gf-portrait gf-portrait--avatar", className)}
      viewBox="0 0 40 40"
      aria-hidden="true"
      focusable="false"
      data-avatar={avatar.initials}
    >
      <circle cx="20" cy="20" r="20" fill={avatar.background} />
      <text
        x="20"
        y="20"
        dy=".35em"
        textAnchor="middle"
        fill={avatar.foreground}
        fontSize={avatar.initials.length > 1 ? 15 : 18}
        fontWeight="600"
      >
        {avatar.initials}
      </text>
    </svg>
  );
}

/**
 * A racer portrait: `${imageBase}/img/racer_portrait/${picture}` (`imageBase` defaults to the
 * `<GravityProvider>` client's `baseUrl`), falling back to
 * `placeholderSrc` or an inline silhouette when there is no picture or it fails to load.
 * Decorative (`alt=""`): the racer's name is always next to it.
 */
export function Portrait(props: PortraitProps): ReactElement {
  // Inside a <GravityProvider>, portraits come from the game's address: absolute URLs.
  const client = useOptionalGameClient();
  const url = portraitUrl(props.picture, props.imageBase ?? client?.baseUrl);
  const src = url && props.size === "large" ? `${url}?size=large` : url;
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const ref = useRef<HTMLImageElement>(null);

  // An image that failed before hydration never fires onError for React: check once mounted.
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0 && src) setFailedSrc(src);
  }, [src]);

  if (!src || failedSrc === src) {
    return props.placeholderSrc ? (
      <img
        className={cx("gf-portrait gf-portrait--placeholder", props.className)}
        src={props.placeholderSrc}
        alt=""
        data-placeholder=""
      />
    ) : props.firstName !== undefined || props.lastName !== undefined ? (
      <AvatarPortrait
        firstName={props.firstName ?? ""}
        lastName={props.lastName ?? ""}
        origin={props.origin}
        className={props.className}
      />
    ) : (
      <PlaceholderPortrait className={props.className} />
    );
  }
  return (
    <img
      ref={ref}
      className={cx("gf-portrait", props.className)}
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailedSrc(src)}
    />
  );
}
