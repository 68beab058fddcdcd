import {
  finderScamWarning,
  formatDateTime,
  formatPhone,
  messages,
  normalisePhone,
  paths,
  type FoundReportDetail,
} from '@petreg/contract';
import { CheckCircle, Email, Phone, WarningAmber } from '@mui/icons-material';
import { Alert, Box, Button, Card, CardContent, Grid, Link, Stack, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { ApiError, firstError } from '../../app/api';
import { recordId } from '../../app/params';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageHeader } from '../../components/PageHeader';
import { useFinderPhoto, useFoundReport, useMarkReunited } from './api';
import { SharePhoneDialog } from './SharePhoneDialog';

/** client/found-reports/{id}: one finder's report, opened (which stops its escalation). */
export function FoundReportPage() {
  const id = recordId(useParams().id);
  if (!id) return <Navigate to={paths.notFound} replace />;
  return <Report key={id} id={id} />;
}

/** A finder's text: shown as text, its line breaks kept; never markup nor a link. */
const finderText = { whiteSpace: 'pre-line', overflowWrap: 'anywhere' } as const;

function Report({ id }: { id: number }) {
  const report = useFoundReport(id);
  if (report.error instanceof ApiError && report.error.status === 404) return <Navigate to={paths.notFound} replace />;
  if (report.isError) return <Alert severity="error">{firstError(report.error, messages.genericError)}</Alert>;
  if (!report.data) return <CenteredSpinner />;
  const r = report.data;
  return (
    <Box sx={{ maxWidth: 960 }}>
      <PageHeader title={`${r.petName} was found`} subtitle={`Reported by ${r.finderName} on ${formatDateTime(r.createdAt)}`} />
      <Alert severity="warning" icon={<WarningAmber />} sx={{ mb: 3 }}>
        {finderScamWarning}
      </Alert>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={3}>
            <Section title="The finder's message">
              <Typography sx={finderText}>{r.message}</Typography>
            </Section>
            <FinderPhoto report={r} />
            <Section title="Where the pet is now">
              <Typography sx={finderText}>{r.location}</Typography>
            </Section>
            {r.question && (
              <Section title="Your question">
                <Typography sx={{ fontWeight: 600, ...finderText }}>{r.question}</Typography>
                <Typography sx={finderText}>{r.answer ? `The finder's answer: ${r.answer}` : 'The finder did not answer.'}</Typography>
                <Typography variant="body2" color="text.secondary">
                  The portal never checks the answer: compare it with what you know.
                </Typography>
              </Section>
            )}
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={3}>
            <FinderContact report={r} />
            <Answers report={r} />
          </Stack>
        </Grid>
      </Grid>
    </Box>
  );
}

function FinderPhoto({ report }: { report: FoundReportDetail }) {
  const src = useFinderPhoto(report.photoUrl);
  if (!src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={`Photo of ${report.petName} from the finder`}
      sx={{ width: '100%', maxHeight: 420, objectFit: 'contain', borderRadius: 2, bgcolor: 'grey.100' }}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card component="section" aria-label={title}>
      <CardContent>
        <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <Stack spacing={1}>{children}</Stack>
      </CardContent>
    </Card>
  );
}

/** The finder's name and contact: a phone opens the dialler, an e-mail the mail app. */
function FinderContact({ report }: { report: FoundReportDetail }) {
  const phone = report.finderPhone && normalisePhone(report.finderPhone);
  const email = report.finderEmail && /^[^\s@?&#]+@[^\s@?&#]+$/.test(report.finderEmail) ? report.finderEmail : null;
  return (
    <Section title="The finder">
      <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{report.finderName}</Typography>
      {phone && (
        <Link href={`tel:${phone}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
          <Phone fontSize="small" aria-hidden />
          {formatPhone(phone)}
        </Link>
      )}
      {email && (
        <Link href={`mailto:${email}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, overflowWrap: 'anywhere' }}>
          <Email fontSize="small" aria-hidden />
          {email}
        </Link>
      )}
      <Typography variant="body2" color="text.secondary">
        The finder does not see your name, phone or address unless you share your phone below.
      </Typography>
    </Section>
  );
}

/** What the owner can do: share the phone once, mark the pet reunited; and who else was told. Nothing once the pet went to another owner. */
function Answers({ report }: { report: FoundReportDetail }) {
  const [sharing, setSharing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const reunite = useMarkReunited(report.id);
  const markReunited = () =>
    reunite.mutate(undefined, {
      onSuccess: () => toast(messages.reunited, { variant: 'success' }),
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
      onSettled: () => setConfirming(false),
    });

  if (report.petTransferred) {
    return (
      <Section title="Your answer">
        <Alert severity="info">{messages.foundReportPetTransferred}</Alert>
        <Typography variant="body2">
          <Link component={RouterLink} to={paths.clientFoundReports}>
            All found reports
          </Link>
        </Typography>
      </Section>
    );
  }

  return (
    <Section title="Your answer">
      {report.phoneSharedAt ? (
        <Typography sx={{ display: 'flex', gap: 1 }}>
          <CheckCircle color="success" aria-hidden />
          You shared your phone number on {formatDateTime(report.phoneSharedAt)}.
        </Typography>
      ) : (
        <Button variant="contained" startIcon={<Phone />} onClick={() => setSharing(true)} disabled={Boolean(report.reunitedAt)}>
          Share my phone with this finder
        </Button>
      )}
      {report.reunitedAt ? (
        <Alert severity="success">Reunited on {formatDateTime(report.reunitedAt)}.</Alert>
      ) : (
        <Button variant="outlined" color="success" startIcon={<CheckCircle />} onClick={() => setConfirming(true)}>
          Mark as reunited
        </Button>
      )}
      {report.backupContactsToldAt && (
        <Typography variant="body2" color="text.secondary">
          Nobody opened this report in time, so your backup contacts were texted on {formatDateTime(report.backupContactsToldAt)}.
        </Typography>
      )}
      {report.vetsToldAt && (
        <Typography variant="body2" color="text.secondary">
          Your pet&apos;s vets were e-mailed the finder&apos;s contact on {formatDateTime(report.vetsToldAt)}.
        </Typography>
      )}
      <Typography variant="body2">
        <Link component={RouterLink} to={paths.clientFoundReports}>
          All found reports
        </Link>
      </Typography>
      {sharing && <SharePhoneDialog report={report} onClose={() => setSharing(false)} />}
      <ConfirmDialog
        open={confirming}
        text={`Is ${report.petName} home? Marking ${report.petName} reunited ends a lost pet alert that is still open, and thanks everyone it reached.`}
        confirmLabel="Mark as reunited"
        confirmColor="success"
        pending={reunite.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={markReunited}
      />
    </Section>
  );
}
