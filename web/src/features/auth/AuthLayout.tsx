import { CheckCircleOutlined, FormatQuote, Pets } from '@mui/icons-material';
import { Box, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Sign-up screens carry the marketing copy and testimonials (spec 1). */
  marketing?: boolean;
  /** Room for a longer form (the pet's details); the promise beside it then shows on large screens only. */
  wide?: boolean;
}

/** The account screens: a form card, with the product's promise beside it on wide screens. */
export function AuthLayout({ title, subtitle, children, marketing = false, wide = false }: AuthLayoutProps) {
  const asideFrom = wide ? 'lg' : 'md';
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      <Box
        sx={{
          flex: { xs: 1, [asideFrom]: wide ? '0 0 840px' : '0 0 520px' },
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          p: { xs: 2, sm: 4 },
        }}
      >
        <Paper variant="outlined" sx={{ width: '100%', maxWidth: wide ? 760 : 440, p: { xs: 3, sm: 4 } }} component="main">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 3, color: 'primary.main' }}>
            <Pets aria-hidden />
            <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
              Pet Registry
            </Typography>
          </Stack>
          <Typography variant="h1" gutterBottom>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
        </Paper>
      </Box>
      <Box
        component="aside"
        sx={{
          display: { xs: 'none', [asideFrom]: 'flex' },
          flex: 1,
          flexDirection: 'column',
          justifyContent: 'center',
          px: 8,
          py: 6,
          color: 'primary.contrastText',
          background: 'linear-gradient(135deg, #0f5e6b 0%, #137a83 55%, #1f8f7a 100%)',
        }}
      >
        <Box sx={{ maxWidth: 560 }}>
          <Typography variant="h2" component="p" sx={{ fontSize: '2.2rem', mb: 2 }}>
            Bring them home, faster.
          </Typography>
          <Typography sx={{ opacity: 0.9, mb: 4, fontSize: '1.05rem' }}>
            A microchip only helps a lost pet when it is registered with a recovery service that answers the
            phone. Keep your pet's chip and your contact details in one place, day and night.
          </Typography>
          <Stack spacing={1.5} sx={{ mb: marketing ? 5 : 0 }}>
            {promises.map((promise) => (
              <Stack key={promise} direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                <CheckCircleOutlined aria-hidden />
                <Typography>{promise}</Typography>
              </Stack>
            ))}
          </Stack>
          {marketing && (
            <Stack spacing={2}>
              {testimonials.map(({ quote, author }) => (
                <Paper key={author} component="figure" sx={{ m: 0, p: 2.5, bgcolor: 'rgba(255,255,255,0.1)', color: 'inherit' }} elevation={0}>
                  <FormatQuote aria-hidden sx={{ opacity: 0.7 }} />
                  <Typography component="blockquote" sx={{ m: 0, fontStyle: 'italic' }}>
                    {quote}
                  </Typography>
                  <Typography component="figcaption" variant="body2" sx={{ mt: 1, opacity: 0.85 }}>
                    — {author}
                  </Typography>
                </Paper>
              ))}
            </Stack>
          )}
        </Box>
      </Box>
    </Box>
  );
}

const promises = [
  'Register any brand of microchip, or a pet without one',
  'Live phone support 24/7/365 when your pet goes missing',
  'Lost pet alerts to vets and shelters within 50 miles',
];

const testimonials = [
  {
    quote: 'Our beagle slipped out during a storm. The shelter scanned his chip and we had a call the next morning.',
    author: 'Dana R., pet owner',
  },
  {
    quote: 'Registering both cats took a few minutes, and now their details are in one place if we ever need them.',
    author: 'Marcus T., pet owner',
  },
];
