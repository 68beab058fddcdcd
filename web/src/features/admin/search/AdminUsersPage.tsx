import { formatPhone, messages, paths, ui, withId, type AdminUserRow } from '@petreg/contract';
import { ArrowBack, PersonSearch } from '@mui/icons-material';
import {
  Alert,
  Box,
  Button,
  Card,
  Chip,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
} from '@mui/material';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { firstError } from '../../../app/api';
import { CenteredSpinner } from '../../../components/CenteredSpinner';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { stackedTable } from '../../../components/stackedTable';
import { countedPaging } from '../AdminListCard';
import { useUserSearch } from './api';

/** admin/users/:searchkey (spec 2.7): the accounts a search found; a row with a pet opens admin/pet/{petId}. */
export function AdminUsersPage() {
  const searchTerm = useParams().searchkey ?? '';
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = useUserSearch(searchTerm, page);
  const navigate = useNavigate();
  const open = (row: AdminUserRow) => row.petId !== null && void navigate(withId(paths.adminPet, row.petId));

  return (
    <>
      <PageHeader title="Accounts" subtitle={`Owners and pets matching “${searchTerm}”.`} />
      <Button component={RouterLink} to={paths.adminSearch} startIcon={<ArrowBack />} sx={{ mb: 2 }}>
        New search
      </Button>
      <Card>
        <LinearProgress aria-label="Loading accounts" sx={{ visibility: search.isFetching && search.data ? 'visible' : 'hidden' }} />
        {search.isError ? (
          <Alert severity="error">{firstError(search.error, messages.genericError)}</Alert>
        ) : !search.data ? (
          <CenteredSpinner />
        ) : search.data.rows.length === 0 && page === 1 ? (
          <EmptyState
            icon={<PersonSearch />}
            title={messages.searchNoRecords}
            hint="Try part of a name, a pet's name, an email, or a phone number from its area code."
          />
        ) : (
          <>
            <TableContainer
              sx={{ ...stackedTable(600), maxHeight: ui.searchTableMaxHeight, px: { xs: 1.5, sm: 0 }, pt: { xs: 1.5, sm: 0 }, '& th, & td': { px: 1.5 } }}
            >
              <Table stickyHeader aria-label="Accounts found">
                <TableHead>
                  <TableRow>
                    <TableCell>Owner Name</TableCell>
                    <TableCell>Email</TableCell>
                    <TableCell>Address</TableCell>
                    <TableCell>Phone Number</TableCell>
                    <TableCell>Pet Name</TableCell>
                    <TableCell>Chip ID</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {search.data.rows.map((row) => (
                    <TableRow
                      key={`${row.userId}-${row.petId ?? 'none'}`}
                      hover={row.petId !== null}
                      onClick={() => open(row)}
                      onKeyDown={(event) => event.key === 'Enter' && open(row)}
                      tabIndex={row.petId === null ? undefined : 0}
                      aria-label={row.petId === null ? undefined : `Open ${row.petName ?? 'pet'} of ${row.ownerName}`}
                      sx={{ cursor: row.petId === null ? 'default' : 'pointer' }}
                    >
                      <TableCell data-label="Owner Name">{row.ownerName}</TableCell>
                      <TableCell data-label="Email" sx={{ overflowWrap: 'anywhere' }}>
                        {row.email}
                      </TableCell>
                      <TableCell data-label="Address">{row.address || '—'}</TableCell>
                      <TableCell data-label="Phone Number" sx={{ whiteSpace: { sm: 'nowrap' } }}>
                        {formatPhone(row.phoneNumber) || '—'}
                      </TableCell>
                      <TableCell data-label="Pet Name">
                        {row.petName ?? '—'}
                        {row.petRemoved && <Chip size="small" label="Removed" variant="outlined" sx={{ ml: 1 }} />}
                      </TableCell>
                      <TableCell data-label="Chip ID">
                        <Box component="span" sx={{ fontFamily: 'monospace' }}>
                          {row.chipId ?? '—'}
                        </Box>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            {/* Always shown: "1–3 of 3" tells the administrator how many rows the search found. */}
            <TablePagination
              component="div"
              {...countedPaging(search.data, search.data.rows.length, search.data.pageSize)}
              page={page - 1}
              onPageChange={(_, next) => setParams({ page: String(next + 1) })}
              rowsPerPage={search.data.pageSize}
              rowsPerPageOptions={[]}
            />
          </>
        )}
      </Card>
    </>
  );
}
