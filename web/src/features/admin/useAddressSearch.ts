import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/** Typing pauses this long before the list is searched. */
const searchDelayMs = 300;

/**
 * An administrator's list search whose query, filter and page live in the address, so a reload or
 * Back shows the same list: `text` follows the box as typed, `query` the search run once typing
 * pauses; `filter` is '' when none is chosen. A new search or filter starts at page 1.
 */
export function useAddressSearch() {
  const [params, setParams] = useSearchParams();
  const query = params.get('query') ?? '';
  const filter = params.get('filter') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(query);

  useEffect(() => {
    if (text.trim() === query) return;
    const timer = window.setTimeout(() => setParams({ ...(text.trim() && { query: text.trim() }), ...(filter && { filter }) }, { replace: true }), searchDelayMs);
    return () => window.clearTimeout(timer);
  }, [text, query, filter, setParams]);

  const setFilter = (next: string) => setParams({ ...(query && { query }), ...(next && { filter: next }) });
  const goToPage = (next: number) => setParams({ ...(query && { query }), ...(filter && { filter }), page: String(next) });
  return { text, setText, query, filter, setFilter, page, goToPage };
}
