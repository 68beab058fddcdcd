import { isIP } from 'node:net';
import { z } from 'zod';

/** An address, a CIDR range, or one of the ranges Fastify's trustProxy names (loopback, linklocal, uniquelocal). */
function isProxyAddress(entry: string) {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * Which hops of X-Forwarded-For are believed: a hop count (the right-most N were added by our own
 * proxies) or the proxies' addresses. `true` is refused: it takes the left-most address, which the client writes.
 */
export const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((v, ctx): number | string[] | false => {
    if (v === '' || v === 'false' || v === '0') return false;
    if (/^\d+$/.test(v)) return Number(v);
    const list = v.split(',').map((s) => s.trim());
    if (v !== 'true' && list.every(isProxyAddress)) return list;
    ctx.addIssue({ code: 'custom', message: "must be a hop count (1 behind one load balancer) or the proxies' addresses or CIDR ranges, comma-separated" });
    return z.NEVER;
  });
