import { formatDate, messages, paths, ui } from '@petreg/contract';
import { DeleteOutlined, PanTool, SwapHoriz } from '@mui/icons-material';
import { Alert, AlertTitle, Button, Grid, Link, Stack } from '@mui/material';
import { useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { allErrors } from '../../../app/api';
import { recordId } from '../../../app/params';
import { toast } from '../../../app/toast';
import { CenteredSpinner } from '../../../components/CenteredSpinner';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { PageHeader } from '../../../components/PageHeader';
import { AdminPetCard } from './AdminPetCard';
import { AdminUserCard } from './AdminUserCard';
import { useAdminPet, useAdminPetSupport, useAdminUser, useRemovePet } from './api';
import { LostStatus, PetSupportCards } from './PetSupportCards';
import { ProtectedRecordPanel } from './ProtectedRecordPanel';
import { HoldTransfersDialog, TransferHoldAlert } from './TransferHold';
import { TransferPetDialog } from './TransferPetDialog';

/** admin/pet/:id: the owner's and the pet's records, with transfer and removal (spec 2.7). */
export function AdminPetPage() {
  const id = recordId(useParams().id);
  if (id === null) return <Navigate to={paths.notFound} replace />;
  return <AdminPetRecord key={id} petId={id} />;
}

function AdminPetRecord({ petId }: { petId: number }) {
  const navigate = useNavigate();
  const pet = useAdminPet(petId);
  const user = useAdminUser(pet.data?.userId);
  const support = useAdminPetSupport(petId);
  const remove = useRemovePet(petId);
  const [transferring, setTransferring] = useState(false);
  const [holding, setHolding] = useState(false);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);

  const removePet = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        toast(messages.petDeleted, { variant: 'info' });
        void navigate(paths.admin);
      },
      onSettled: () => setConfirmingRemoval(false),
    });

  // Spec 8: pet load or delete errors as a red banner for 10 seconds.
  const failure = pet.error ?? user.error ?? support.error ?? remove.error;
  const banner = failure && (
    <ErrorBanner key={pet.errorUpdatedAt + user.errorUpdatedAt + support.errorUpdatedAt + remove.submittedAt} durationMs={ui.petErrorMs}>
      {allErrors(failure, messages.genericError)}
    </ErrorBanner>
  );

  if (pet.isError) {
    return (
      <>
        <PageHeader title="Pet record" />
        {banner}
        <Link component={RouterLink} to={paths.adminSearch}>
          Back to search
        </Link>
      </>
    );
  }
  if (!pet.data || !user.data) return user.isError ? banner : <CenteredSpinner />;
  const { removed, transferHold } = pet.data;

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
        <PageHeader title={pet.data.name} subtitle={`Owned by ${user.data.data.displayName || user.data.data.email}`} />
        {!removed && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexShrink: 0, flexWrap: 'wrap', mb: { xs: 2, sm: 0 } }}>
            <Button variant="outlined" startIcon={<SwapHoriz />} onClick={() => setTransferring(true)}>
              Transfer
            </Button>
            {!transferHold && (
              <Button variant="outlined" color="warning" startIcon={<PanTool />} onClick={() => setHolding(true)}>
                Dispute hold
              </Button>
            )}
            <Button variant="outlined" color="error" startIcon={<DeleteOutlined />} onClick={() => setConfirmingRemoval(true)}>
              Remove
            </Button>
          </Stack>
        )}
      </Stack>
      {banner}
      {removed ? (
        // Kept for the audit and found by its old chip: read-only.
        <Alert severity="warning" sx={{ mb: 3 }}>
          <AlertTitle>Removed on {formatDate(removed.at)}</AlertTitle>
          The owner and the lookup no longer see this pet.
          {removed.chipIds.length > 0 && ` Its chip ${removed.chipIds.join(', ')} was retired and may be registered again.`}
        </Alert>
      ) : (
        <>
          {transferHold && <TransferHoldAlert petId={petId} hold={transferHold} />}
          {support.data && <LostStatus lost={support.data.lost} petName={pet.data.name} />}
        </>
      )}
      <ProtectedRecordPanel user={user.data} />
      {/* Side by side only on wide screens: beside the two navigation panels each card would be cramped. */}
      <Grid container spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Grid size={{ xs: 12, xl: 5 }}>
          {/* A transfer names another owner: their card starts afresh. */}
          <AdminUserCard key={user.data.id} user={user.data} />
        </Grid>
        <Grid size={{ xs: 12, xl: 7 }}>
          <AdminPetCard pet={pet.data} />
        </Grid>
      </Grid>
      {support.data && <PetSupportCards pet={pet.data} support={support.data} ownerEmail={user.data.data.email} />}
      <TransferPetDialog
        petId={petId}
        petName={pet.data.name}
        lost={support.data?.lost ?? null}
        hold={transferHold}
        open={transferring}
        onClose={() => setTransferring(false)}
      />
      <HoldTransfersDialog petId={petId} petName={pet.data.name} open={holding} onClose={() => setHolding(false)} />
      <ConfirmDialog
        open={confirmingRemoval}
        text={messages.deleteConfirm}
        pending={remove.isPending}
        onCancel={() => setConfirmingRemoval(false)}
        onConfirm={removePet}
      />
    </>
  );
}
