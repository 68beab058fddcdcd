import { adminChipSearchQuery, adminUserSearchSchema, cardPaymentSearchQuery, messages, paths, withId } from '@petreg/contract';
import { Box } from '@mui/material';
import { useNavigate } from 'react-router';
import { ApiError, firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { PageHeader } from '../../../components/PageHeader';
import { useChipSearch } from './api';
import { SearchBox } from './SearchBox';

/** admin-search (spec 2.7): four boxes: a pet by microchip, accounts, veterinary clients (no search behind it), card payments. */
export function AdminSearchPage() {
  const navigate = useNavigate();
  const chipSearch = useChipSearch();

  const findChip = (chip: string) =>
    chipSearch.mutate(chip, {
      onSuccess: ({ petId }) => void navigate(withId(paths.adminPet, petId)),
      onError: (error) =>
        toast(error instanceof ApiError && error.status === 404 ? messages.chipSearchNoRecords : firstError(error, messages.genericError), { variant: 'error' }),
    });

  return (
    <>
      <PageHeader title="Search / Edit Records" subtitle="Find a pet by its microchip, an account by its owner or pet, or a card payment." />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <SearchBox
          title="Pet microchip"
          description="Opens the pet and its owner. Spaces, dashes and asterisks are ignored."
          label="Microchip number"
          schema={adminChipSearchQuery.shape.chip}
          onSearch={findChip}
          disabledWhenEmpty
          busy={chipSearch.isPending}
          htmlInput={{ maxLength: 40, autoComplete: 'off', spellCheck: false }}
        />
        <SearchBox
          title="Accounts"
          description="Part of an owner's name, a pet's name, an email, or a phone number typed any way."
          label="Name, pet name, phone or email"
          schema={adminUserSearchSchema.shape.searchTerm}
          onSearch={(term) => void navigate(withId(paths.adminUsers, encodeURIComponent(term)))}
          htmlInput={{ maxLength: 100, autoComplete: 'off' }}
        />
        <SearchBox
          title="Veterinary clients"
          description="Clients of a veterinary practice."
          label="Practice or client name"
          unavailable="Not available yet."
        />
        <SearchBox
          title="Card payments"
          description="Payments made with a card ending in these 4 digits."
          label="Card last 4 digits"
          schema={cardPaymentSearchQuery.shape.key}
          onSearch={(key) => void navigate(withId(paths.adminStripeSearch, key))}
          disabledWhenEmpty
          clean={(text) => text.replace(/\D/g, '').slice(0, 4)}
          htmlInput={{ inputMode: 'numeric', autoComplete: 'off' }}
        />
      </Box>
    </>
  );
}
