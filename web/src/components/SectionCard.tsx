import { Card, CardActions, CardContent, CardHeader } from '@mui/material';
import type { ReactNode } from 'react';

interface SectionCardProps {
  title: string;
  /** A button beside the title, such as "Add a pet". */
  action?: ReactNode;
  /** An icon before the title. */
  avatar?: ReactNode;
  /** Actions under the content, such as a link to where the card's data is edited. */
  footer?: ReactNode;
  children: ReactNode;
}

/** A titled card that is a landmark of its own, named by its title. */
export function SectionCard({ title, action, avatar, footer, children }: SectionCardProps) {
  return (
    <Card component="section" aria-label={title} sx={{ height: '100%' }}>
      <CardHeader
        title={title}
        avatar={avatar}
        slotProps={{ title: { variant: 'h3', component: 'h2' } }}
        action={action}
        sx={{ '& .MuiCardHeader-action': { alignSelf: 'center', m: 0 } }}
      />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
      {footer && <CardActions sx={{ px: 2, pb: 2 }}>{footer}</CardActions>}
    </Card>
  );
}
