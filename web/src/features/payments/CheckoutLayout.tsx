import { Lock, Pets } from '@mui/icons-material';
import { Box, Container, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useSupportContact } from '../../app/settings';

/** The frame of the checkout and Thank You pages: no navigation, the brand, and who to call. */
export function CheckoutLayout({ children, secure = false }: { children: ReactNode; secure?: boolean }) {
  const contact = useSupportContact();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        <Container maxWidth="lg" sx={{ py: 2, display: 'flex', alignItems: 'center', gap: 2 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'primary.main', flexGrow: 1 }}>
            <Pets aria-hidden />
            <Typography variant="subtitle1" component="span" sx={{ fontWeight: 700 }}>
              Pet Registry
            </Typography>
          </Stack>
          {secure && (
            <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary' }}>
              <Lock fontSize="small" aria-hidden />
              <Typography variant="body2">Secure checkout</Typography>
            </Stack>
          )}
        </Container>
      </Box>
      <Container component="main" maxWidth="lg" sx={{ flexGrow: 1, py: { xs: 3, md: 5 } }}>
        {children}
      </Container>
      <Box component="footer" sx={{ py: 3, textAlign: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {contact && (
            <>
              Questions about your order? Call us at{' '}
              <Link href={contact.phoneHref}>
                {contact.phone}
              </Link>
              , day or night.
            </>
          )}
        </Typography>
      </Box>
    </Box>
  );
}
