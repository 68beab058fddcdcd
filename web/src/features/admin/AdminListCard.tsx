import { messages } from '@petreg/contract';
import { Search } from '@mui/icons-material';
import { Alert, Button, Card, InputAdornment, LinearProgress, Stack, TablePagination, TextField } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import type { useAddressSearch } from './useAddressSearch';

interface AdminListCardProps<Item> {
  /** The search and page in the address (useAddressSearch). */
  search: ReturnType<typeof useAddressSearch>;
  searchLabel: string;
  placeholder: string;
  maxLength: number;
  /** Shown beside the search box: a choice that narrows the list (kept in the address with useAddressSearch's filter). */
  filters?: ReactNode;
  /** One page of the list, matching the search. */
  list: UseQueryResult<{ items: Item[]; total: number; totalCapped?: boolean }>;
  /** Read out while a new page loads. */
  loadingLabel: string;
  pageSize: number;
  /** Shown when nothing matches. */
  empty: ReactNode;
  /** The page's items (a table). */
  children: (items: Item[]) => ReactNode;
}

/**
 * Paging of a list that counts its matches up to matchCountLimit: past it, "1–50 of 1,000+" and Next
 * until a page comes back short, so every page stays reachable.
 */
export function countedPaging({ total, totalCapped = false }: { total: number; totalCapped?: boolean }, shown: number, pageSize: number) {
  return {
    count: totalCapped ? -1 : total,
    labelDisplayedRows: ({ from, to }: { from: number; to: number }) =>
      `${from}–${to} of ${total.toLocaleString('en-US')}${totalCapped ? '+' : ''}`,
    slotProps: { actions: { nextButton: totalCapped && shown < pageSize ? { disabled: true } : {} } },
  };
}

/** An administrators' list (sites, the mail log): a search box, the page of items, and paging. */
export function AdminListCard<Item>({ search, searchLabel, placeholder, maxLength, filters, list, loadingLabel, pageSize, empty, children }: AdminListCardProps<Item>) {
  return (
    <Card>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ p: 2, pb: 1, gap: 2 }}>
        <TextField
          label={searchLabel}
          placeholder={placeholder}
          value={search.text}
          onChange={(event) => search.setText(event.target.value)}
          size="small"
          fullWidth
          sx={{ maxWidth: { sm: 420 } }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search />
                </InputAdornment>
              ),
            },
            htmlInput: { maxLength, type: 'search' },
          }}
        />
        {filters}
      </Stack>
      {/* Kept in place while idle, so the list does not jump when a search starts. */}
      <LinearProgress aria-label={loadingLabel} sx={{ visibility: list.isFetching && list.data ? 'visible' : 'hidden' }} />
      {list.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        >
          {firstError(list.error, messages.genericError)}
        </Alert>
      ) : !list.data ? (
        <CenteredSpinner />
      ) : list.data.items.length === 0 && search.page === 1 ? (
        empty
      ) : (
        <>
          {children(list.data.items)}
          <TablePagination
            component="div"
            {...countedPaging(list.data, list.data.items.length, pageSize)}
            page={search.page - 1}
            onPageChange={(_, next) => search.goToPage(next + 1)}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[]}
          />
        </>
      )}
    </Card>
  );
}
