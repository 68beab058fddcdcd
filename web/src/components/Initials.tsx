import { Box } from '@mui/material';

/**
 * An avatar's initials, drawn by CSS rather than written as text. They decorate a name spelled out
 * beside them; as text they would become part of the visible label of the link or button around
 * them, a label its accessible name (the name alone) must contain (WCAG 2.5.3).
 */
export function Initials({ text }: { text: string }) {
  return <Box component="span" aria-hidden data-initials={text} sx={{ '&::before': { content: 'attr(data-initials)' } }} />;
}
