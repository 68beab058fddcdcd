import { formatDateTime, messages, type ApiKeyEntry } from '@petreg/contract';
import { Add, Block, VpnKey } from '@mui/icons-material';
import { Alert, Button, Card, Chip, IconButton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip } from '@mui/material';
import { useState } from 'react';
import { firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { CellText } from '../../../components/CellText';
import { CenteredSpinner } from '../../../components/CenteredSpinner';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { stackedTable } from '../../../components/stackedTable';
import { IssueApiKeyDialog } from './IssueApiKeyDialog';
import { useApiKeys, useRevokeApiKey } from './apiKeysApi';

const limitOf = (key: ApiKeyEntry) => `${key.requests.toLocaleString('en-US')} per ${key.per}`;

/** admin-api-keys: the keys shelters, clinics and registries call the open lookup with. */
export function ApiKeysPage() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [issuing, setIssuing] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyEntry | null>(null);

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => toast(messages.apiKeyRevokedDone, { variant: 'success' }),
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
      onSettled: () => setRevoking(null),
    });
  };

  return (
    <>
      <PageHeader
        title="API keys"
        subtitle={
          <>
            Keys to the open microchip lookup (<code>GET /api/v2/public/lookup/&lt;chip&gt;</code>) for shelters, clinics and other registries.
            Without a key, each address may look up 30 chips a minute.
          </>
        }
      />
      <Button variant="contained" startIcon={<Add />} onClick={() => setIssuing(true)} sx={{ mb: 2 }}>
        Issue a key
      </Button>
      <Card>
        {keys.isPending ? (
          <CenteredSpinner />
        ) : keys.isError ? (
          <Alert severity="error">{firstError(keys.error, messages.genericError)}</Alert>
        ) : keys.data.length === 0 ? (
          <EmptyState icon={<VpnKey />} title="No API keys yet" hint="Issue one to each shelter, clinic or registry that looks chips up often." />
        ) : (
          <TableContainer sx={{ ...stackedTable(720), px: { xs: 1.5, sm: 0 }, pt: { xs: 1.5, sm: 0 }, '& th, & td': { px: 1.5 } }}>
            <Table aria-label="API keys">
              <TableHead>
                <TableRow>
                  <TableCell>Holder</TableCell>
                  <TableCell>Created</TableCell>
                  <TableCell>Limit</TableCell>
                  <TableCell align="right">Uses</TableCell>
                  <TableCell>Last used</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {keys.data.map((key) => (
                  <TableRow key={key.id} hover>
                    <TableCell data-label="Holder" sx={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                      <CellText detail={`${key.prefix}…`}>{key.name}</CellText>
                    </TableCell>
                    <TableCell data-label="Created" sx={{ whiteSpace: 'nowrap' }}>
                      <CellText detail={key.createdBy ? `by ${key.createdBy}` : undefined}>{formatDateTime(key.createdAt)}</CellText>
                    </TableCell>
                    <TableCell data-label="Limit" sx={{ whiteSpace: 'nowrap' }}>
                      {limitOf(key)}
                    </TableCell>
                    <TableCell data-label="Uses" align="right">
                      {key.usageCount.toLocaleString('en-US')}
                    </TableCell>
                    <TableCell data-label="Last used" sx={{ whiteSpace: 'nowrap' }}>
                      {key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never'}
                    </TableCell>
                    <TableCell data-label="Status">
                      {key.revokedAt ? (
                        <CellText detail={`${formatDateTime(key.revokedAt)}${key.revokedBy ? ` by ${key.revokedBy}` : ''}`}>
                          <Chip size="small" label="Revoked" />
                        </CellText>
                      ) : (
                        <Chip size="small" color="success" label="Active" />
                      )}
                    </TableCell>
                    <TableCell align="right">
                      {!key.revokedAt && (
                        <Tooltip title="Revoke">
                          <IconButton aria-label={`Revoke the key of ${key.name}`} onClick={() => setRevoking(key)}>
                            <Block />
                          </IconButton>
                        </Tooltip>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Card>
      {issuing && <IssueApiKeyDialog onClose={() => setIssuing(false)} />}
      <ConfirmDialog
        open={revoking !== null}
        text={`Revoke the key of ${revoking?.name ?? ''}? Every lookup made with it will be refused from now on; this cannot be undone.`}
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      />
    </>
  );
}
