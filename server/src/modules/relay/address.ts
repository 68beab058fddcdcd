/** A reply address's local part: "reply-" and the alert e-mail's 32 random hexadecimal digits. */
const replyLocalPart = /^reply-([0-9a-f]{32})$/;

/** The Reply-To of one alert e-mail: its own token at the inbound mail domain. */
export const replyAddressOf = (replyToken: string, domain: string) => `reply-${replyToken}@${domain}`;

/**
 * The token a recipient address names, or null: an address at another domain, or whose local part
 * is not a reply token, is nobody's (the listener relays nothing else). Letter case is ignored, as
 * some mail servers change it.
 */
export function replyTokenOf(address: string, domain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain) return null;
  return replyLocalPart.exec(address.slice(0, at).toLowerCase())?.[1] ?? null;
}
