import { formatDate, formatDateTime, formatMoney, formatPhone, mailKinds, messages, paths, type AdminPet, type AdminPetSupport } from '@petreg/contract';
import { Campaign, ContactPhone, LocalHospital, MarkEmailRead, Payments } from '@mui/icons-material';
import { Alert, AlertTitle, Box, Button, Chip, Link, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { SectionCard } from '../../../components/SectionCard';
import { registrationStatus } from '../../pets/petDisplay';
import { MailStatusChip } from '../MailStatusChip';
import { useAdminResendContactConfirmation } from './api';

const none = (text: string) => (
  <Typography variant="body2" color="text.secondary">
    {text}
  </Typography>
);

/** Whether the pet is lost, first thing a support agent reads when a finder calls. */
export function LostStatus({ lost, petName }: { lost: AdminPetSupport['lost']; petName: string }) {
  if (!lost) {
    return (
      <Alert severity="success" icon={<Campaign />} sx={{ mb: 3 }}>
        {petName} is not reported lost.
      </Alert>
    );
  }
  return (
    <Alert severity="error" icon={<Campaign />} sx={{ mb: 3 }} aria-label="Lost pet alert">
      <AlertTitle>
        {petName} is lost, since {formatDateTime(lost.missingDate)}
      </AlertTitle>
      Last seen in {lost.place ?? lost.zipCode}: {lost.incidentDescription}
      <Box>
        {lost.status === 'paid' && lost.sentAt
          ? `Alert sent ${formatDateTime(lost.sentAt)} to ${lost.recipientsCount} professionals nearby.`
          : 'Alert filled in but not paid: not sent yet.'}
      </Box>
    </Alert>
  );
}

/** Backup contacts, vets, cover and payments, and the last e-mails to the owner. */
export function PetSupportCards({ pet, support, ownerEmail }: { pet: AdminPet; support: AdminPetSupport; ownerEmail: string }) {
  const mailLog = `${paths.adminSendEmail}?${new URLSearchParams({ query: ownerEmail })}`;
  const resend = useAdminResendContactConfirmation(pet.id);
  const askAgain = (contactId: number) =>
    resend.mutate(contactId, {
      onSuccess: () => toast(messages.backupContactConfirmationSent, { variant: 'success' }),
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
    });
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, mt: 3 }}>
      <SectionCard title="Backup Contacts" avatar={<ContactPhone color="primary" />}>
        {support.backupContacts.length === 0 ? (
          none('The owner keeps no backup contacts.')
        ) : (
          <List dense disablePadding>
            {support.backupContacts.map((contact) => (
              <ListItem key={contact.id} disableGutters sx={{ flexWrap: 'wrap', columnGap: 1 }}>
                <ListItemText primary={contact.name} secondary={formatPhone(contact.phoneNumber)} />
                {!contact.phoneConfirmed && (
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Chip size="small" variant="outlined" color="warning" label="Never confirmed" />
                    <Button size="small" aria-label={`Resend the confirmation text to ${contact.name}`} onClick={() => askAgain(contact.id)} disabled={resend.isPending}>
                      Resend
                    </Button>
                  </Stack>
                )}
              </ListItem>
            ))}
          </List>
        )}
      </SectionCard>
      <SectionCard title="Vets" avatar={<LocalHospital color="primary" />}>
        {support.vets.length === 0 ? (
          none('No vet is linked to this pet.')
        ) : (
          <List dense disablePadding>
            {support.vets.map((vet) => (
              <ListItem key={vet.id} disableGutters>
                <ListItemText
                  primary={`${vet.name}${vet.isActive ? '' : ' (switched off)'}`}
                  secondary={[formatPhone(vet.phoneNumber), vet.place].filter(Boolean).join(' · ')}
                />
              </ListItem>
            ))}
          </List>
        )}
      </SectionCard>
      <SectionCard title="Cover and Payments" avatar={<Payments color="primary" />}>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {registrationStatus(pet)}
          {pet.plan && ` · ${pet.plan.name}`}
        </Typography>
        {support.payments.length === 0 ? (
          none('No payment for this pet.')
        ) : (
          <List dense disablePadding aria-label="Payments">
            {support.payments.map((payment) => (
              <ListItem key={payment.id} disableGutters>
                <ListItemText
                  primary={`${formatDate(payment.createdAt)} · ${formatMoney(payment.amount, payment.currency)} · ${payment.planName ?? 'Payment'}${payment.status === 'paid' ? '' : ` (${payment.status.replace('_', ' ')})`}`}
                  secondary={`${payment.cardLast4 ? `Card ending ${payment.cardLast4} · ` : ''}paid by ${payment.payerEmail}`}
                />
              </ListItem>
            ))}
          </List>
        )}
      </SectionCard>
      <SectionCard
        title="Last E-mails to the Owner"
        avatar={<MarkEmailRead color="primary" />}
        footer={
          <Link component={RouterLink} to={mailLog}>
            All e-mails to {ownerEmail} in the mail log
          </Link>
        }
      >
        {support.mails.length === 0 ? (
          none('No e-mail was sent to the owner.')
        ) : (
          <Stack spacing={1} component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {support.mails.map((mail) => (
              <Box component="li" key={mail.id} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', justifyContent: 'space-between' }}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {mail.subject}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {mailKinds[mail.kind]} · {formatDateTime(mail.createdAt)}
                  </Typography>
                </Box>
                <MailStatusChip status={mail.status} />
              </Box>
            ))}
          </Stack>
        )}
      </SectionCard>
    </Box>
  );
}
