import { alertFormPath, formatDate, formatLostTime, formatMoney, messages, paths, type EmailStats, type Pet, type PetAlert } from '@petreg/contract';
import { Campaign, CheckCircle, NotificationsNone, Pets, Place, Schedule } from '@mui/icons-material';
import {
  Avatar,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { firstError } from '../../app/api';
import { useFollowLocation } from '../../app/followLocation';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { useUserPets } from '../pets/api';
import { petImage } from '../pets/petDisplay';
import { useAlertCheckout, useAlertPrices, useEmailStats, useMarkAsFound, usePetAlert } from './api';

/** Spec 3: a pet whose alert went out (paid) shows in the analytics; any other can be alerted about. */
const isAlerted = (pet: Pet) => pet.status === 'paid';

/** client/add-alert: choose the lost pet, and follow the alerts already out (spec 2.5). */
export function AlertsPage() {
  const pets = useUserPets();
  return (
    <>
      <PageHeader
        title="Lost Pet Alerts"
        subtitle="Alert the vets, shelters and rescues near where your pet was last seen, and see who received it."
      />
      {pets.data ? (
        <Stack spacing={3}>
          <LostPetChoice pets={pets.data.filter((pet) => !isAlerted(pet))} hasPets={pets.data.length > 0} />
          <Analytics pets={pets.data.filter(isAlerted)} />
        </Stack>
      ) : (
        <CenteredSpinner />
      )}
    </>
  );
}

function LostPetChoice({ pets, hasPets }: { pets: Pet[]; hasPets: boolean }) {
  const prices = useAlertPrices();
  return (
    <SectionCard title="Which pet is missing?">
      {prices.data && pets.length > 0 && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          An alert costs {formatMoney(prices.data.priceCents, prices.data.currency)}, and is free for a pet with active protection.
        </Typography>
      )}
      {pets.length > 0 ? (
        <Stack component="ul" aria-label="Pets to alert about" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {pets.map((pet) => (
            <li key={pet.id}>
              <LostPetRow pet={pet} free={prices.data?.freePetIds.includes(pet.id) ?? false} />
            </li>
          ))}
        </Stack>
      ) : hasPets ? (
        <EmptyState icon={<Campaign />} title="Every pet has an alert out" hint="Follow them under Analytics below." />
      ) : (
        <Stack sx={{ alignItems: 'center' }}>
          <EmptyState icon={<Pets />} title="No pets yet" hint="Add your pet with a photo to send an alert about it." />
          <Button component={RouterLink} to={paths.clientPetAdd} variant="contained">
            Add a pet
          </Button>
        </Stack>
      )}
    </SectionCard>
  );
}

interface PetRowProps {
  pet: Pet;
  /** Lines under the name. */
  detail?: ReactNode;
  /** The buttons beside the pet (under it on phones). */
  children: ReactNode;
  /** Full width under the pet and its buttons. */
  footer?: ReactNode;
}

/** The pet's own card: photo and name beside what can be done about it. */
function PetRow({ pet, detail, children, footer }: PetRowProps) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexGrow: 1, minWidth: 0 }}>
          <Avatar src={petImage(pet)} alt="" variant="rounded" sx={{ width: 56, height: 56, borderRadius: 2 }} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              {pet.name}
            </Typography>
            {detail}
          </Box>
        </Stack>
        {children}
      </Stack>
      {footer && <Box sx={{ mt: 2 }}>{footer}</Box>}
    </Paper>
  );
}

/** A pet to alert about; one whose alert waits for its payment can go straight to paying for it. */
function LostPetRow({ pet, free }: { pet: Pet; free: boolean }) {
  const alert = usePetAlert(pet.id);
  const checkout = useAlertCheckout();
  const follow = useFollowLocation();
  const waiting = alert.data?.status === 'NEW';
  const breeds = pet.breeds.map((b) => b.name).join(', ');

  return (
    <PetRow
      pet={pet}
      detail={
        <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
          {(pet.species || breeds) && (
            <Typography variant="body2" color="text.secondary">
              {[pet.species, breeds].filter(Boolean).join(' · ')}
            </Typography>
          )}
          {free && <Chip size="small" color="success" label="Free alert: protected" />}
          {waiting && <Chip size="small" color="warning" label="Alert waiting for payment" />}
        </Stack>
      }
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ flexShrink: 0 }}>
        {waiting && (
          <Button
            variant="outlined"
            color="secondary"
            loading={checkout.isPending}
            onClick={() =>
              checkout.mutate(pet.id, {
                onSuccess: ({ location }) => follow(location),
                onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error', duration: 5000 }),
              })
            }
          >
            Pay and send
          </Button>
        )}
        <Button component={RouterLink} to={alertFormPath(pet.id)} variant="contained">
          Select and continue
        </Button>
      </Stack>
    </PetRow>
  );
}

function Analytics({ pets }: { pets: Pet[] }) {
  return (
    <SectionCard title="Analytics">
      {pets.length > 0 ? (
        <Stack component="ul" aria-label="Alerts sent" spacing={2} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {pets.map((pet) => (
            <li key={pet.id}>
              <AlertAnalytics pet={pet} />
            </li>
          ))}
        </Stack>
      ) : (
        <EmptyState
          icon={<NotificationsNone />}
          title="No alerts out"
          hint="Once an alert is sent, you see here how many professionals received and opened it."
        />
      )}
    </SectionCard>
  );
}

/** One sent alert: where and when, its e-mail counts, and the way to end it. */
function AlertAnalytics({ pet }: { pet: Pet }) {
  const alert = usePetAlert(pet.id);
  return (
    <PetRow
      pet={pet}
      detail={alert.data && <AlertFacts alert={alert.data} />}
      footer={alert.data && <StatsTiles alertId={alert.data.id} />}
    >
      <MarkAsFound pet={pet} />
    </PetRow>
  );
}

function AlertFacts({ alert }: { alert: PetAlert }) {
  return (
    <Stack spacing={0.25} sx={{ mt: 0.25 }}>
      <Fact icon={<Place fontSize="inherit" />}>Last seen near {alert.place}</Fact>
      <Fact icon={<Schedule fontSize="inherit" />}>Missing since {formatLostTime(alert.missingDate)}</Fact>
      {alert.sentAt && (
        <Fact icon={<Campaign fontSize="inherit" />}>
          Sent {formatDate(alert.sentAt)} to {alert.recipientsCount} {alert.recipientsCount === 1 ? 'professional' : 'professionals'}
        </Fact>
      )}
    </Stack>
  );
}

function Fact({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary' }}>
      {icon}
      <Typography variant="body2">{children}</Typography>
    </Stack>
  );
}

const statTiles: { key: keyof EmailStats; label: string; waitsForPositive: boolean }[] = [
  { key: 'counted', label: 'Counted', waitsForPositive: true },
  { key: 'delivered', label: 'Delivered', waitsForPositive: true },
  { key: 'opened', label: 'Opened', waitsForPositive: true },
  { key: 'bounced', label: 'Bounced', waitsForPositive: false },
];

/** Spec 2.5: counted, delivered and opened read [loading] until they are positive. */
function StatsTiles({ alertId }: { alertId: number }) {
  const stats = useEmailStats(alertId);
  return (
    <Box>
      <Box
        component="dl"
        aria-label="E-mail statistics"
        sx={{ m: 0, display: 'grid', gap: 1, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(96px, 1fr))' } }}
      >
        {statTiles.map(({ key, label, waitsForPositive }) => {
          const value = stats.data?.[key];
          const shown = value === undefined || (waitsForPositive && value <= 0) ? '[loading]' : String(value);
          return (
            <Paper key={key} variant="outlined" sx={{ px: 1.5, py: 1, bgcolor: 'grey.50' }}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, fontWeight: 700, fontSize: '1.25rem' }}>
                {shown}
              </Typography>
            </Paper>
          );
        })}
      </Box>
      {stats.data && stats.data.automaticOpens > 0 && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.75 }}>
          Not counted as opened: {stats.data.automaticOpens} opened automatically by a mail app's privacy protection.
        </Typography>
      )}
    </Box>
  );
}

/** Spec 4: the alert ends after a confirmation. */
function MarkAsFound({ pet }: { pet: Pet }) {
  const [confirming, setConfirming] = useState(false);
  const markAsFound = useMarkAsFound();

  const confirm = () => markAsFound.mutate(pet.id, { onSettled: () => setConfirming(false) });

  return (
    <>
      <Button
        variant="contained"
        color="success"
        startIcon={<CheckCircle />}
        onClick={() => setConfirming(true)}
        sx={{ flexShrink: 0, alignSelf: { xs: 'stretch', sm: 'flex-start' } }}
      >
        Mark as found
      </Button>
      <Dialog
        open={confirming}
        onClose={() => !markAsFound.isPending && setConfirming(false)}
        aria-labelledby={`found-${pet.id}-title`}
        aria-describedby={`found-${pet.id}-text`}
      >
        <DialogTitle id={`found-${pet.id}-title`}>Is {pet.name} home?</DialogTitle>
        <DialogContent>
          <DialogContentText id={`found-${pet.id}-text`}>
            The alert ends, and everyone who received it gets a short note that {pet.name} has been found, so nobody keeps
            looking.
          </DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setConfirming(false)} disabled={markAsFound.isPending}>
            Cancel
          </Button>
          <Button variant="contained" color="success" loading={markAsFound.isPending} onClick={confirm}>
            Mark as found
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
