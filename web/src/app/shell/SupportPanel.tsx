import { paths } from '@petreg/contract';
import { Phone, Place } from '@mui/icons-material';
import { Box, Divider, Link, Stack, Typography } from '@mui/material';
import { SiteLink } from '../../components/SiteLink';
import { useSupportContact } from '../settings';

/** The side panel of spec 2.2: how to reach support, and the company pages. */
export function SupportPanel() {
  const contact = useSupportContact();
  // Home and Blog are the operator's addresses (HOME_URL, BLOG_URL); privacy and terms are the portal's own pages.
  const links = [
    contact && { label: 'Home', href: contact.homeUrl },
    contact?.blogUrl && { label: 'Blog', href: contact.blogUrl },
    { label: 'Privacy Policy', href: paths.privacy },
    { label: 'Terms of Service', href: paths.terms },
  ].filter((link): link is { label: string; href: string } => Boolean(link));

  return (
    <Box component="aside" aria-label="Support" sx={{ p: 3 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        Need help?
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Our team answers 24 hours a day, 7 days a week.
      </Typography>
      {contact && (
        <Stack spacing={2}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
            <Phone color="primary" aria-hidden />
            <Link href={contact.phoneHref} variant="subtitle1" sx={{ fontWeight: 600 }}>
              {contact.phone}
            </Link>
          </Stack>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
            <Place color="primary" aria-hidden />
            <Typography variant="body2" component="address" sx={{ fontStyle: 'normal' }}>
              {contact.address}
            </Typography>
          </Stack>
        </Stack>
      )}
      <Divider sx={{ my: 3 }} />
      <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {links.map(({ label, href }) => (
          <li key={label}>
            <SiteLink href={href} underline="hover">
              {label}
            </SiteLink>
          </li>
        ))}
      </Stack>
    </Box>
  );
}
