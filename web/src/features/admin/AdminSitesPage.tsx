import {
  adminSiteFilters,
  adminSitesPageSize,
  formatDate,
  formatDateTime,
  formatPhone,
  messages,
  type AdminSite,
  type AdminSiteFilter,
  type SiteAlertPreferences,
  type SiteSource,
  toApiDate,
} from '@petreg/contract';
import { Add, DeleteSweep, Download, EditOutlined, Storefront, UploadFile } from '@mui/icons-material';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  MenuItem,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
} from '@mui/material';
import { useState } from 'react';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { CellText } from '../../components/CellText';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { stackedTable } from '../../components/stackedTable';
import { SiteFormDialog } from './SiteFormDialog';
import { SiteImportDialog, sitesTemplateUrl } from './SiteImportDialog';
import { siteInput, useAdminSites, useRemoveSamples, useSaveSite } from './sitesApi';
import { AdminListCard } from './AdminListCard';
import { useAddressSearch } from './useAddressSearch';

const filterNames: Record<AdminSiteFilter, string> = {
  all: 'All sites',
  active: 'Active',
  inactive: 'Inactive',
  sample: 'Samples',
  unsubscribed: 'Unsubscribed',
};

const sourceNames: Record<SiteSource, string> = {
  places: 'Maps search',
  owner: 'Owner',
  admin: 'Administrator',
  import: 'CSV import',
  sample: 'Sample',
};

/** "Saint Louis, MO 63101", from what the site has of it. */
const place = (site: AdminSite) => [site.city, [site.state, site.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');

/**
 * What a site's address chose through an alert's preferences link, in a line and a detail: the
 * species, then radius, daily cap and pause. Nothing chosen is every alert within 50 miles.
 */
function preferencesOf(preferences: SiteAlertPreferences | null): { line: string; detail: string } {
  if (!preferences) return { line: 'Every alert', detail: 'No preferences set' };
  const species = preferences.species === null ? 'All species' : preferences.species.length ? `${preferences.species.join(', ')} only` : 'No species';
  const limits = [`Within ${preferences.radiusMiles} mi`, preferences.dailyCap === null ? null : `${preferences.dailyCap} a day at most`];
  const paused = preferences.pausedUntil && preferences.pausedUntil > toApiDate(new Date())! ? `Paused until ${formatDate(preferences.pausedUntil)}` : null;
  return { line: species, detail: [...limits, paused].filter(Boolean).join(' · ') };
}

const bouncesOf = (bounces: number) => (bounces === 1 ? '1 bounce' : `${bounces.toLocaleString('en-US')} bounces`);

/** admin-sites: the directory of vets, shelters and rescues that lost-pet alerts reach (spec 2.7, "View Onboarded Sites"). */
export function AdminSitesPage() {
  const search = useAddressSearch();
  const { query, page } = search;
  const filter = adminSiteFilters.find((name) => name === search.filter) ?? 'all';
  const sites = useAdminSites(query, filter, page);
  /** undefined: no dialog; null: a new site; otherwise the site being edited. */
  const [editing, setEditing] = useState<AdminSite | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const [removingSamples, setRemovingSamples] = useState(false);

  return (
    <>
      <PageHeader title="Sites" subtitle="The directory of vets, shelters and rescues: vet search shows them and lost-pet alerts reach them." />
      <Stack direction="row" sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" startIcon={<Add />} onClick={() => setEditing(null)}>
          Add site
        </Button>
        <Button variant="outlined" startIcon={<UploadFile />} onClick={() => setImporting(true)}>
          Import CSV
        </Button>
        <Button startIcon={<Download />} href={sitesTemplateUrl} download>
          Download template
        </Button>
        {/* Offered while sample sites are switched on: once removed, they never come back. */}
        {Boolean(sites.data?.activeSamples) && (
          <Button color="error" startIcon={<DeleteSweep />} onClick={() => setRemovingSamples(true)} sx={{ ml: { sm: 'auto' } }}>
            Remove all samples
          </Button>
        )}
      </Stack>

      <AdminListCard
        search={search}
        searchLabel="Search sites"
        placeholder="Name, city, ZIP code or email"
        maxLength={200}
        filters={
          <TextField
            select
            label="Show"
            size="small"
            value={filter}
            onChange={(event) => search.setFilter(event.target.value === 'all' ? '' : event.target.value)}
            sx={{ width: { xs: '100%', sm: 200 }, flexShrink: 0 }}
          >
            {adminSiteFilters.map((name) => (
              <MenuItem key={name} value={name}>
                {filterNames[name]}
              </MenuItem>
            ))}
          </TextField>
        }
        list={sites}
        loadingLabel="Loading sites"
        pageSize={adminSitesPageSize}
        empty={
          <EmptyState
            icon={<Storefront />}
            title="No sites found"
            hint={
              query
                ? 'Try part of a name, a city, a ZIP code or an email address.'
                : filter !== 'all'
                  ? `No site is ${filterNames[filter].toLowerCase()}: show all sites to see the others.`
                  : 'Add a site, or import a CSV file of them.'
            }
          />
        }
      >
        {(items) => (
          <TableContainer sx={{ ...stackedTable(600), px: { xs: 1.5, sm: 0 }, pt: { xs: 1.5, sm: 0 }, '& th, & td': { px: 1.5 } }}>
            <Table aria-label="Sites">
              <TableHead>
                <TableRow>
                  <TableCell>Site</TableCell>
                  <TableCell>Contact</TableCell>
                  <TableCell>Alerts</TableCell>
                  <TableCell>Preferences</TableCell>
                  <TableCell>Last alert</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {items.map((site) => (
                  <TableRow key={site.id} hover>
                    <TableCell data-label="Site">
                      <CellText detail={[site.kind, place(site)].filter(Boolean).join(' · ')}>{site.name}</CellText>
                    </TableCell>
                    <TableCell data-label="Contact" sx={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                      <CellText detail={formatPhone(site.phoneNumber) || undefined}>{site.email ?? '—'}</CellText>
                    </TableCell>
                    <TableCell data-label="Alerts">
                      <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
                        <AlertsSwitch site={site} />
                        {site.unsubscribed && (
                          <Tooltip title="This email address unsubscribed from lost-pet alerts: none are sent to it.">
                            <Chip size="small" label="Unsubscribed" color="warning" variant="outlined" />
                          </Tooltip>
                        )}
                      </Stack>
                    </TableCell>
                    <TableCell data-label="Preferences" sx={{ minWidth: 150 }}>
                      <CellText detail={preferencesOf(site.alertPreferences).detail}>{preferencesOf(site.alertPreferences).line}</CellText>
                    </TableCell>
                    <TableCell data-label="Last alert">
                      <CellText
                        detail={
                          site.bounces > 0 ? (
                            <Box component="span" sx={{ color: 'error.main' }}>
                              {bouncesOf(site.bounces)}
                            </Box>
                          ) : (
                            'No bounces'
                          )
                        }
                      >
                        {site.lastAlertAt ? formatDateTime(site.lastAlertAt) : 'None yet'}
                      </CellText>
                    </TableCell>
                    <TableCell data-label="Status">
                      <CellText detail={sourceNames[site.source] ?? site.source}>
                        <Chip size="small" label={site.isActive ? 'Active' : 'Inactive'} color={site.isActive ? 'success' : 'default'} variant="outlined" />
                      </CellText>
                    </TableCell>
                    <TableCell align="right">
                      <Tooltip title="Edit">
                        <IconButton aria-label={`Edit ${site.name}`} onClick={() => setEditing(site)}>
                          <EditOutlined />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </AdminListCard>

      {editing !== undefined && <SiteFormDialog key={editing?.id ?? 'new'} site={editing} onClose={() => setEditing(undefined)} />}
      {importing && <SiteImportDialog onClose={() => setImporting(false)} />}
      {removingSamples && <RemoveSamplesDialog onClose={() => setRemovingSamples(false)} />}
    </>
  );
}

/** Turns a site's alerts on or off at once; alerts need an e-mail to go to. */
function AlertsSwitch({ site }: { site: AdminSite }) {
  const save = useSaveSite();
  // Shown turned from the click until the list is read again: held in the component's own state, set
  // in the click itself, so the switch never flicks back while the save starts or the list reloads.
  const [turnedTo, setTurnedTo] = useState<boolean | null>(null);
  const needsEmail = !site.email && !site.receivesAlerts;
  const toggle = (receivesAlerts: boolean) => {
    setTurnedTo(receivesAlerts);
    save.mutate(
      { id: site.id, site: { ...siteInput(site), receivesAlerts } },
      {
        onSuccess: () => toast(messages.recordSaved, { variant: 'success' }),
        onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
        onSettled: () => setTurnedTo(null),
      },
    );
  };
  return (
    <Tooltip title={needsEmail ? messages.siteAlertsNeedEmail : ''}>
      {/* A disabled control shows no tooltip of its own. */}
      <span>
        <Switch
          checked={turnedTo ?? site.receivesAlerts}
          disabled={needsEmail || turnedTo !== null}
          onChange={(_, checked) => toggle(checked)}
          slotProps={{ input: { 'aria-label': `Receives alerts: ${site.name}` } }}
        />
      </span>
    </Tooltip>
  );
}

function RemoveSamplesDialog({ onClose }: { onClose: () => void }) {
  const remove = useRemoveSamples();
  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: ({ removed }) => {
        toast(`${removed} sample ${removed === 1 ? 'site' : 'sites'} removed.`, { variant: 'success' });
        onClose();
      },
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
    });
  return (
    <Dialog open onClose={onClose} aria-labelledby="remove-samples-title" aria-describedby="remove-samples-text">
      <DialogTitle id="remove-samples-title">Remove all samples?</DialogTitle>
      <DialogContent>
        <DialogContentText id="remove-samples-text">
          Every sample site is switched off: vet search no longer shows it and alerts no longer reach it. Owners who linked a sample vet to a pet
          keep it, and the samples do not come back.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="contained" color="error" loading={remove.isPending} onClick={confirm}>
          Remove samples
        </Button>
      </DialogActions>
    </Dialog>
  );
}
