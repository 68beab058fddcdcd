import type { DehydratedState } from '@tanstack/react-query';

/** The script element holding the answers a server-rendered page was rendered from. */
const elementId = 'finder-page-state';

/**
 * The answers as a JSON data block (never run, so the CSP's script rules do not concern it). Pet names
 * and owners' words are user input: every `<` is escaped, so no `</script>` or `<!--` in them ends or
 * bends the element, and U+2028/U+2029 for any reader that takes the text for JavaScript.
 */
export function finderPageStateScript(state: DehydratedState): string {
  const json = JSON.stringify(state).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${elementId}">${json}</script>`;
}

/** The answers the server rendered this page from; null when the page came without (a client-rendered screen). */
export function readFinderPageState(): DehydratedState | null {
  const text = document.getElementById(elementId)?.textContent;
  return text ? (JSON.parse(text) as DehydratedState) : null;
}
