import { Badge } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * How many things wait unread, over an icon. With none, no badge at all: a hidden badge still writes
 * its last number, which then counts as visible text of the link or button that holds it, text its
 * name does not contain (WCAG 2.5.3).
 */
export function UnreadBadge({ count, children }: { count: number; children: ReactNode }) {
  if (count === 0) return children;
  return (
    <Badge badgeContent={count} color="error" max={99}>
      {children}
    </Badge>
  );
}
