import { contactNumbers, formatLostTime, formatPhone, type PublicProfile } from '@petreg/contract';
import { ExpandMore, Call, Email } from '@mui/icons-material';
import { Box, Button, Menu, MenuItem, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useState, useSyncExternalStore, type ReactNode } from 'react';

// The parts of a pet's profile that the browser runs: on a page the server rendered, each is an
// island of its own (see Island.tsx), hydrated without the rest of the page.

const subscribeToNothing = () => () => {};

/**
 * The lost time in the reader's time zone, which only the browser knows: a page rendered on the server
 * says it in UTC (and hydrates so), then the browser says it in its own zone.
 */
export function LostTime({ value }: { value: string }) {
  const text = useSyncExternalStore(
    subscribeToNothing,
    () => formatLostTime(value),
    () => formatLostTime(value, 'utc'),
  );
  return <Typography>{text}</Typography>;
}

export function Section({ title, icon, children }: { title: string; icon?: ReactNode; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.75 }}>
        {icon}
        <Typography variant="h3" component="h2">
          {title}
        </Typography>
      </Stack>
      {children}
    </Box>
  );
}

/** Mail and phone actions; wider screens add the menu of the owner's, vet's and guardian's numbers. */
export function ContactSection({ profile }: { profile: PublicProfile }) {
  const { pet } = profile;
  const wide = useMediaQuery(useTheme().breakpoints.up('md'));
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const numbers = contactNumbers(profile);

  return (
    <Section title="Contact">
      <Typography color="text.secondary" sx={{ mb: 1.5 }}>
        Have you seen {pet.petName}? Please let the owner know.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        {pet.email && (
          <Button variant="contained" startIcon={<Email />} href={`mailto:${pet.email}`}>
            Email the owner
          </Button>
        )}
        {pet.phone && (
          <Button variant="contained" color="secondary" startIcon={<Call />} href={`tel:${pet.phone}`}>
            Call the owner
          </Button>
        )}
        {wide && numbers.length > 0 && (
          <>
            <Button
              variant="outlined"
              endIcon={<ExpandMore />}
              aria-haspopup="menu"
              aria-expanded={Boolean(menuAnchor)}
              onClick={(event) => setMenuAnchor(event.currentTarget)}
            >
              Phone numbers
            </Button>
            <Menu anchorEl={menuAnchor} open={Boolean(menuAnchor)} onClose={() => setMenuAnchor(null)}>
              {numbers.map(({ label, phone }) => (
                <MenuItem key={label} component="a" href={`tel:${phone}`} onClick={() => setMenuAnchor(null)}>
                  <Box>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {label}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {formatPhone(phone)}
                    </Typography>
                  </Box>
                </MenuItem>
              ))}
            </Menu>
          </>
        )}
      </Stack>
    </Section>
  );
}
