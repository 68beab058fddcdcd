import { GpsFixed, HealthAndSafety, Medication, OpenInNew, VideoCall } from '@mui/icons-material';
import { Avatar, Button, Card, CardActions, CardContent, Grid, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { partnerOffers, type PartnerOffer } from './partnerOffers';

const offerIcons: Record<PartnerOffer['id'], ReactNode> = {
  telehealth: <VideoCall />,
  'pet-meds': <Medication />,
  'gps-collars': <GpsFixed />,
  'pet-insurance': <HealthAndSafety />,
};

/** A partner's offer with a link to the partner's own site, opened in a new tab. */
export function PartnerOfferLink({ offer }: { offer: PartnerOffer }) {
  return (
    <Button
      variant="contained"
      href={offer.href}
      target="_blank"
      rel="noopener noreferrer"
      endIcon={<OpenInNew aria-hidden />}
      aria-label={`${offer.action} at ${offer.partner} (opens in a new tab)`}
    >
      {offer.action}
    </Button>
  );
}

/** client/perks and client/member-perks: partner discounts for members (spec 1). */
export function PerksPage() {
  return (
    <>
      <PageHeader
        title="Member Perks"
        subtitle="Your protection plan comes with savings from our partners. Offers open on the partner's site."
      />
      <Grid container spacing={3}>
        {partnerOffers.map((offer) => (
          <Grid key={offer.id} size={{ xs: 12, sm: 6, xl: 3 }}>
            <Card component="article" aria-labelledby={`offer-${offer.id}`} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
              <CardContent sx={{ flexGrow: 1 }}>
                <Avatar sx={{ bgcolor: 'primary.main', mb: 2, width: 48, height: 48 }}>{offerIcons[offer.id]}</Avatar>
                <Typography id={`offer-${offer.id}`} variant="h3" component="h2" gutterBottom>
                  {offer.title}
                </Typography>
                <Typography variant="overline" color="text.secondary" component="p" sx={{ lineHeight: 1.6, mb: 1 }}>
                  {offer.partner}
                </Typography>
                <Typography color="text.secondary">{offer.description}</Typography>
              </CardContent>
              <CardActions sx={{ px: 2, pb: 2 }}>
                <PartnerOfferLink offer={offer} />
              </CardActions>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}
