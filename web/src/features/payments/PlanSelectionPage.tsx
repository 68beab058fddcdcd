import {
  collarTagPriceCents,
  couponCode,
  couponPercentOff,
  withCoupon,
  formatMoney,
  formatRegisteredUntil,
  isCouponChip,
  messages,
  paths,
  ui,
  withId,
  type Pet,
  type Plan,
} from '@petreg/contract';
import { Check, LocalOffer, QrCode2 } from '@mui/icons-material';
import {
  Alert,
  AlertTitle,
  Avatar,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  Chip,
  Divider,
  FormControlLabel,
  Grid,
  Link,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { allErrors, firstError } from '../../app/api';
import { recordId } from '../../app/params';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { usePublicSettings } from '../../app/settings';
import { AuthLayout } from '../auth/AuthLayout';
import { usePet, useUpgradeToLifetime } from '../pets/api';
import { coverage, petImage } from '../pets/petDisplay';
import { useChoosePlan, useCollarTagPlan, useLifetimePrice, usePlans } from './api';

/** pet-subscription/:id: the sign-up flow's membership step, outside the client area (spec 2.1). */
export function PetSubscriptionPage() {
  return (
    <AuthLayout
      wide
      marketing
      title="Choose your membership"
      subtitle="A protection plan keeps your pet's microchip registered with our 24/7 recovery service."
    >
      <PlanSelectionFor petFlow />
    </AuthLayout>
  );
}

/** client/pet/checkout/{id}: plan choice for one of the owner's pets (spec 2.4). */
export function ClientPetCheckoutPage() {
  return (
    <>
      <PageHeader
        title="Choose a protection plan"
        subtitle="Keep your pet's microchip registered with our 24/7 recovery service."
      />
      <PlanSelectionFor petFlow={false} />
    </>
  );
}

function PlanSelectionFor({ petFlow }: { petFlow: boolean }) {
  const id = recordId(useParams().id);
  if (id === null) return <Navigate to={paths.notFound} replace />;
  return <PlanSelection key={id} petId={id} petFlow={petFlow} />;
}

/** Spec 4, plan selection: choose yearly or lifetime, then go on to pay at the checkout. */
function PlanSelection({ petId, petFlow }: { petId: number; petFlow: boolean }) {
  const pet = usePet(petId);
  const plans = usePlans();
  const choose = useChoosePlan();

  if (pet.isError || plans.isError) {
    return (
      <>
        <ErrorBanner key={pet.errorUpdatedAt + plans.errorUpdatedAt} durationMs={ui.petErrorMs}>
          {allErrors(pet.error ?? plans.error, messages.genericError)}
        </ErrorBanner>
        <Link component={RouterLink} to={paths.client}>
          Back to your dashboard
        </Link>
      </>
    );
  }
  if (!pet.data || !plans.data) return <CenteredSpinner />;

  const chip = pet.data.chips[0];
  const covered = coverage(pet.data);
  const coupon = chip && isCouponChip(chip.chipId) ? couponCode : null;
  // Leaving for the checkout takes a moment after the answer; the plans stay locked meanwhile.
  const busy = choose.isPending || choose.isSuccess;

  const choosePlan = (plan: Plan) =>
    choose.mutate(
      // The collar tag is out of stock (spec 2.4), so it is never part of the order.
      { petId, planId: plan.id, petFlow, isTagSelected: false, coupon },
      { onSuccess: ({ location }) => window.location.assign(location) },
    );

  return (
    <Stack spacing={3}>
      {choose.isError && (
        <ErrorBanner key={choose.submittedAt} durationMs={ui.checkoutErrorMs}>
          {firstError(choose.error, messages.genericError)}
        </ErrorBanner>
      )}
      <PetSummary pet={pet.data} />
      {!chip ? (
        <Alert
          severity="warning"
          action={
            <Button component={RouterLink} to={withId(paths.clientPetUpdate, petId)} color="inherit" size="small">
              Edit pet
            </Button>
          }
        >
          {messages.petNeedsChip}
        </Alert>
      ) : covered.plan === 'lifetime' ? (
        // Covered for life: nothing left to buy, so no plans, only the way back.
        <Alert severity="success" action={<BackToPet pet={pet.data} />}>
          <AlertTitle>{pet.data.name} is covered for life</AlertTitle>
          {messages.alreadyLifetime} The microchip stays registered with no renewal.
        </Alert>
      ) : covered.plan === 'yearly' ? (
        <YearlyUpgrade pet={pet.data} until={covered.until} plans={plans.data} />
      ) : (
        <>
          {coupon && (
            <Alert severity="success" icon={<LocalOffer />}>
              <AlertTitle>Coupon {coupon} applied</AlertTitle>
              Your pet's microchip qualifies for {couponPercentOff}% off. The discount is already in the prices below.
            </Alert>
          )}
          <Grid container spacing={2}>
            {plans.data.map((plan) => (
              <Grid key={plan.id} size={{ xs: 12, sm: 6 }}>
                <PlanCard
                  plan={plan}
                  discounted={Boolean(coupon)}
                  disabled={busy}
                  loading={busy && choose.variables?.planId === plan.id}
                  onChoose={() => choosePlan(plan)}
                />
              </Grid>
            ))}
          </Grid>
          <CollarTagUpsell />
        </>
      )}
    </Stack>
  );
}

function BackToPet({ pet }: { pet: Pet }) {
  return (
    <Button component={RouterLink} to={withId(paths.clientPetUpdate, pet.id)} color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }}>
      Back to {pet.name}
    </Button>
  );
}

/** Registered on the yearly plan: the one thing left to offer is the upgrade to lifetime. */
function YearlyUpgrade({ pet, until, plans }: { pet: Pet; until: string; plans: Plan[] }) {
  const upgrade = useUpgradeToLifetime();
  const lifetime = plans.find((plan) => plan.oneTime);
  // Leaving for the checkout takes a moment after the answer; the button stays locked meanwhile.
  const busy = upgrade.isPending || upgrade.isSuccess;
  return (
    <>
      {upgrade.isError && (
        <ErrorBanner key={upgrade.submittedAt} durationMs={ui.checkoutErrorMs}>
          {firstError(upgrade.error, messages.genericError)}
        </ErrorBanner>
      )}
      <Alert severity="success" action={<BackToPet pet={pet} />}>
        <AlertTitle>Registered Until {formatRegisteredUntil(until)}</AlertTitle>
        {pet.name} is protected by the yearly plan. Upgrade to lifetime protection to pay once and never renew.
      </Alert>
      {lifetime && (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <PlanCard
              plan={lifetime}
              discounted={false}
              disabled={busy}
              loading={busy}
              actionLabel="Upgrade to Lifetime"
              onChoose={() => upgrade.mutate(pet.id)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <UpgradePrice petId={pet.id} />
          </Grid>
        </Grid>
      )}
    </>
  );
}

/** The upgrade's price: lifetime, less the coupon and the unused part of the yearly cover already paid. */
function UpgradePrice({ petId }: { petId: number }) {
  const price = useLifetimePrice(petId);
  if (!price.data) return null;
  const { planPriceCents, coupon, discountCents, creditCents, totalCents, currency } = price.data;
  const line = (label: string, cents: number, strong = false) => (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', fontWeight: strong ? 700 : undefined }}>
      <Typography sx={{ fontWeight: 'inherit' }}>{label}</Typography>
      <Typography sx={{ fontWeight: 'inherit', whiteSpace: 'nowrap' }}>
        {cents < 0 ? `-${formatMoney(-cents, currency)}` : formatMoney(cents, currency)}
      </Typography>
    </Stack>
  );
  return (
    <Card component="section" aria-labelledby="upgrade-price" sx={{ height: '100%' }}>
      <CardContent>
        <Typography id="upgrade-price" variant="h3" component="h2" sx={{ mb: 2 }}>
          Your upgrade
        </Typography>
        <Stack spacing={1}>
          {line('Lifetime Protection', planPriceCents)}
          {discountCents > 0 && line(`Coupon ${coupon}`, -discountCents)}
          {creditCents > 0 && line('Credit for unused yearly cover', -creditCents)}
          <Divider />
          {line('Total due today', totalCents, true)}
        </Stack>
        {creditCents > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            The days left on your yearly plan are taken off the price, and the yearly plan will not renew.
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function PetSummary({ pet }: { pet: Pet }) {
  const chip = pet.chips[0];
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      <Avatar src={petImage(pet)} alt="" variant="rounded" sx={{ width: 56, height: 56, borderRadius: 2 }} />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="overline" color="text.secondary" component="p" sx={{ lineHeight: 1.5 }}>
          Protection for
        </Typography>
        <Typography variant="h3" component="p" sx={{ overflowWrap: 'anywhere' }}>
          {pet.name}
        </Typography>
        {chip && (
          <Typography variant="body2" color="text.secondary">
            Microchip {chip.chipId}
          </Typography>
        )}
      </Box>
    </Stack>
  );
}

/** What each plan gives, as spec 1 describes the plans. */
function planFeatures(plan: Plan): { tagline: string; features: string[] } {
  if (plan.oneTime) {
    return {
      tagline: 'Pay once, no renewal',
      features: ['Lifetime microchip registration', '24/7/365 telephone support', 'Instant notifications'],
    };
  }
  return {
    tagline: 'Less than $5 per month, billed annually',
    features: ['Microchip registration for one year', 'Renews every year, cancel any time', 'Lost pet alerts to nearby vets and shelters'],
  };
}

interface PlanCardProps {
  plan: Plan;
  discounted: boolean;
  disabled: boolean;
  loading: boolean;
  /** The button's text; Choose {plan name} unless given. */
  actionLabel?: string;
  onChoose: () => void;
}

function PlanCard({ plan, discounted, disabled, loading, actionLabel, onChoose }: PlanCardProps) {
  const { tagline, features } = planFeatures(plan);
  const headingId = `plan-${plan.id}`;
  const price = discounted ? withCoupon(plan.priceCents) : plan.priceCents;
  return (
    <Card
      component="section"
      aria-labelledby={headingId}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        borderColor: plan.oneTime ? 'primary.main' : undefined,
        borderWidth: plan.oneTime ? 2 : undefined,
      }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography id={headingId} variant="h3" component="h2">
            {plan.name}
          </Typography>
          {plan.oneTime && <Chip label="Best value" color="secondary" size="small" />}
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
          <Typography sx={{ fontSize: '2rem', fontWeight: 700 }}>{formatMoney(price, plan.currency)}</Typography>
          {discounted && (
            <Typography component="s" color="text.secondary">
              {formatMoney(plan.priceCents, plan.currency)}
            </Typography>
          )}
          <Typography color="text.secondary">{plan.oneTime ? 'one time' : 'per year'}</Typography>
        </Stack>
        {discounted && <Chip label={`${couponPercentOff}% off with ${couponCode}`} color="success" size="small" sx={{ mt: 0.5 }} />}
        <Typography sx={{ fontWeight: 600, mt: 1 }}>{tagline}</Typography>
        <List dense disablePadding sx={{ mt: 1 }}>
          {features.map((feature) => (
            <ListItem key={feature} disableGutters>
              <ListItemIcon sx={{ minWidth: 32, color: 'success.main' }}>
                <Check fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={feature} />
            </ListItem>
          ))}
        </List>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button
          fullWidth
          size="large"
          variant={plan.oneTime ? 'contained' : 'outlined'}
          disabled={disabled}
          loading={loading}
          onClick={onChoose}
        >
          {actionLabel ?? `Choose ${plan.name}`}
        </Button>
      </CardActions>
    </Card>
  );
}

/** Spec 2.4: the QR collar tag shows only when the upsell is on, and is currently out of stock. */
function CollarTagUpsell() {
  const settings = usePublicSettings();
  const upsell = settings.data?.enableQRcodeUpsell ?? false;
  const tagPlan = useCollarTagPlan(upsell);
  if (!upsell) return null;

  const price = tagPlan.data
    ? formatMoney(Math.round(tagPlan.data.planPrice * 100), tagPlan.data.currency)
    : formatMoney(collarTagPriceCents);
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 2, px: 2, py: 1.5, bgcolor: 'action.hover' }}>
      <FormControlLabel
        disabled
        control={<Checkbox checked={false} />}
        sx={{ alignItems: 'flex-start', m: 0, width: '100%' }}
        label={
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', pt: 1 }}>
            <QrCode2 aria-hidden sx={{ mt: 0.25 }} />
            <Box>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  Add a personalized QR collar tag for {price}
                </Typography>
                <Chip label="Out of Stock" size="small" variant="outlined" />
              </Stack>
              <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                Shipping included. US customers only.
              </Typography>
            </Box>
          </Stack>
        }
      />
    </Box>
  );
}
