import { zodResolver } from '@hookform/resolvers/zod';
import {
  isChipMessage,
  messages,
  petRegistrationSchema,
  ui,
  type CreatedPet,
  type PetRegistration,
  type PetRegistrationInput,
} from '@petreg/contract';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { FormProvider, useForm, type DefaultValues } from 'react-hook-form';
import { allErrors, ApiError } from '../../app/api';
import { toast } from '../../app/toast';
import { useCreatePet } from './api';
import { PetFields } from './PetFields';

const emptyPet: DefaultValues<PetRegistrationInput> = {
  name: '',
  chipId: '',
  confirmChip: '',
  chipTypeId: null,
  breeds: [],
  sex: 0,
  dob: null,
  lastRabiesVaccine: null,
  approximateWeight: null,
  colour: '',
  spayedNeutered: false,
  shareContactInfo: false,
  notes: '',
  image: null,
};

interface PetRegistrationFormProps {
  submitLabel: string;
  /** Where the registration goes on: checkout, plan choice or the lost-pet alert (spec 4). */
  onCreated: (created: CreatedPet) => void;
  /** Shown beside the submit button, such as a way back. */
  secondaryAction?: ReactNode;
}

/** Registers a pet (spec 2.4): client/pet, client/pet/add, client/pet/register and the sign-up's pet-register. */
export function PetRegistrationForm({ submitLabel, onCreated, secondaryAction }: PetRegistrationFormProps) {
  const create = useCreatePet();
  const form = useForm<PetRegistrationInput, unknown, PetRegistration>({
    resolver: zodResolver(petRegistrationSchema),
    defaultValues: emptyPet,
  });
  const [withoutChip, setWithoutChip] = useState<PetRegistration | null>(null);

  const createPet = (pet: PetRegistration) =>
    create.mutate(pet, {
      onSuccess: (created) => {
        for (const warning of created.warnings) toast(warning, { variant: 'warning', duration: ui.petErrorMs });
        onCreated(created);
      },
      onError: (error) => {
        // Spec 8: a chip complaint goes on the chip field; anything else to the snackbar for 10 seconds.
        const chipMessage = error instanceof ApiError ? error.errors.find(isChipMessage) : undefined;
        if (chipMessage) form.setError('chipId', { type: 'server', message: chipMessage }, { shouldFocus: true });
        else toast(allErrors(error, messages.genericError), { variant: 'error', duration: ui.petErrorMs });
      },
    });

  // Spec 2.4: a pet without a chip is registered only after the No microchip? question.
  const onSubmit = form.handleSubmit((pet) => (pet.chipId ? createPet(pet) : setWithoutChip(pet)));

  return (
    <FormProvider {...form}>
      <Stack component="form" spacing={3} onSubmit={onSubmit} noValidate>
        <PetFields />
        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          {secondaryAction}
          <Button type="submit" variant="contained" size="large" loading={create.isPending}>
            {submitLabel}
          </Button>
        </Stack>
      </Stack>
      <NoChipDialog
        open={withoutChip !== null}
        onEnterChip={() => {
          setWithoutChip(null);
          // After the dialog has handed focus back.
          window.setTimeout(() => form.setFocus('chipId'));
        }}
        onContinue={() => {
          if (withoutChip) createPet(withoutChip);
          setWithoutChip(null);
        }}
      />
    </FormProvider>
  );
}

interface NoChipDialogProps {
  open: boolean;
  onEnterChip: () => void;
  onContinue: () => void;
}

function NoChipDialog({ open, onEnterChip, onContinue }: NoChipDialogProps) {
  return (
    <Dialog open={open} onClose={onEnterChip} aria-labelledby="no-chip-title" aria-describedby="no-chip-text">
      <DialogTitle id="no-chip-title">No microchip?</DialogTitle>
      <DialogContent>
        <DialogContentText id="no-chip-text">
          A registered microchip is the surest way for a shelter or vet to bring your pet home. If your pet has a chip,
          enter its number to register it. If your pet is missing right now, you can continue without one and send a
          lost pet alert to vets and shelters nearby.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1, px: 3, pb: 2 }}>
        <Button variant="outlined" onClick={onEnterChip}>
          Register Pet Microchip
        </Button>
        <Button variant="contained" onClick={onContinue}>
          Send Lost Pet Alert
        </Button>
      </DialogActions>
    </Dialog>
  );
}
