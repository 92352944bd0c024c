import { type ReactElement, useEffect, useRef, useState } from "react";
import { portraitUrl } from "../format.js";
import { racerAvatar } from "./avatar.js";
import { useOptionalGameClient } from "./client-context.js";
import { cx } from "./common.js";

/** Whose avatar to draw when there is no portrait: the name and nation it is made from. */
export interface AvatarRacer {
  firstName: string;
  lastName: string;
  origin?: string | null | undefined;
}

export interface PortraitProps {
  picture?: string | null | undefined;
  /** The racer: without a portrait they get their generated avatar ("?" without a racer). */
  racer?: AvatarRacer | undefined;
  imageBase?: string | null | undefined;
  /** `large`: the 480 px square (a profile), else the 128 px thumbnail. */
  size?: "thumb" | "large" | undefined;
  /** An image to show instead of the generated avatar. */
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
      className={cx("gf-portrait gf-silhouette", className)}
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
  racer,
  className,
}: {
  racer?: AvatarRacer | undefined;
  className?: string | undefined;
}): ReactElement {
  const avatar = racerAvatar(racer ?? { firstName: "", lastName: "" });
  return (
    <svg
      className={cx("gf-portrait", className)}
      viewBox="0 0 40 40"
      aria-hidden="true"
      data-avatar={avatar.initials}
    >
      {/* A square: the portrait's round corners make it a disc. */}
      <rect width="40" height="40" fill={avatar.background} />
      <text x="20" y="25.5" fill={avatar.foreground}>
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
      <img className={cx("gf-portrait", props.className)} src={props.placeholderSrc} alt="" />
    ) : (
      <AvatarPortrait racer={props.racer} className={props.className} />
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
