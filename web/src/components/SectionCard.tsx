import { Card, CardContent, CardHeader } from '@mui/material';
import type { ReactNode } from 'react';

interface SectionCardProps {
  title: string;
  /** A button beside the title, such as "Add a pet". */
  action?: ReactNode;
  children: ReactNode;
}

/** A titled card that is a landmark of its own, named by its title. */
export function SectionCard({ title, action, children }: SectionCardProps) {
  return (
    <Card component="section" aria-label={title} sx={{ height: '100%' }}>
      <CardHeader
        title={title}
        slotProps={{ title: { variant: 'h3', component: 'h2' } }}
        action={action}
        sx={{ '& .MuiCardHeader-action': { alignSelf: 'center', m: 0 } }}
      />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </Card>
  );
}
