/**
 * The ranking widgets' pages: the `page` attribute and the props of a paged table. Apart from
 * common.ts so a page without a ranking widget never loads them.
 */
import type { AsyncResult } from "@game/widgets/hooks";
import { useEffect, useState } from "react";
import type { Attributes } from "../runtime";
import { errorMessage, themeOf } from "./common";
import { pageOf } from "./widget-attributes";

/** The page shown: the `page` attribute (followed when it changes), then the reader's clicks. */
export function usePageAttribute(attr: string | null | undefined) {
  const [page, setPage] = useState(pageOf(attr));
  useEffect(() => setPage(pageOf(attr)), [attr]);
  return [page, setPage] as const;
}

/** The props both ranking tables take from a page of the API and the page attribute. */
export function pagedProps<T>(
  result: AsyncResult<{ data: T[]; page: number; pageCount: number }>,
  page: number,
  setPage: (page: number) => void,
  attrs: Attributes,
) {
  const data = result.data;
  return {
    rows: data?.data ?? [],
    page: data?.page ?? page,
    pageCount: data?.pageCount ?? 0,
    onPageChange: setPage,
    loading: result.loading && !data,
    error: errorMessage(result.error),
    onRetry: result.reload,
    theme: themeOf(attrs),
  };
}
