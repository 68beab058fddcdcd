import { paths, support } from '@petreg/contract';
import { Pets } from '@mui/icons-material';
import { Box, Button, Container, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSupportContact } from '../../app/settings';
import { SiteLink } from '../../components/SiteLink';

const footerLinks = [
  { label: 'Terms of Service', href: paths.terms },
  { label: 'Privacy Policy', href: paths.privacy },
];

/** The public pages' frame (spec 2.5): logo and Register Your Pet above, mission and contact below. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const contact = useSupportContact();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        <Container maxWidth="lg" sx={{ py: 1.5, display: 'flex', alignItems: 'center', gap: 2 }}>
          <SiteLink
            href={contact?.homeUrl ?? support.defaultHomeUrl}
            underline="none"
            sx={{ display: 'flex', alignItems: 'center', gap: 1, fontWeight: 700, fontSize: '1.1rem', flexGrow: 1 }}
          >
            <Pets aria-hidden />
            Pet Registry
          </SiteLink>
          <Button component={RouterLink} to={paths.signUp} variant="contained" color="secondary">
            Register Your Pet
          </Button>
        </Container>
      </Box>
      <Container component="main" maxWidth="md" sx={{ flexGrow: 1, py: { xs: 3, sm: 5 } }}>
        {children}
      </Container>
      <Box component="footer" sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', py: 4 }}>
        <Container maxWidth="lg">
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ justifyContent: 'space-between' }}>
            <Box sx={{ maxWidth: 420 }}>
              <Typography sx={{ fontWeight: 700, mb: 1 }}>Every lost pet deserves a way home.</Typography>
              <Typography variant="body2" sx={{ opacity: 0.9 }}>
                We keep microchip registrations and owners' contact details reachable day and night, so a finder, a
                shelter or a vet can reunite a lost pet with its family fast.
              </Typography>
            </Box>
            <Stack spacing={0.5}>
              {contact && (
                <>
                  <Typography variant="body2" component="address" sx={{ fontStyle: 'normal' }}>
                    {contact.address}
                  </Typography>
                  <Link href={contact.phoneHref} color="inherit" variant="body2">
                    {contact.phone}
                  </Link>
                </>
              )}
              <Stack direction="row" spacing={2}>
                {footerLinks.map(({ label, href }) => (
                  <SiteLink key={label} href={href} color="inherit" variant="body2">
                    {label}
                  </SiteLink>
                ))}
              </Stack>
            </Stack>
          </Stack>
          <Typography variant="body2" sx={{ mt: 3, opacity: 0.8 }}>
            © {new Date().getFullYear()} Pet Registry. All rights reserved.
          </Typography>
        </Container>
      </Box>
    </Box>
  );
}
