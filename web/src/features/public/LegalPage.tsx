import { messages, type LegalDocumentName } from '@petreg/contract';
import { Alert, Box, Link, Paper, Typography } from '@mui/material';
import Markdown, { type MarkdownToJSX } from 'markdown-to-jsx/react';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { useLegalDocument } from './api';
import { PublicLayout } from './PublicLayout';

/**
 * The operator's markdown in the portal's own type. It becomes elements, never HTML: raw HTML in
 * the file is shown as text, and link addresses are sanitised by the library.
 */
const markdownOptions: MarkdownToJSX.Options = {
  disableParsingRawHTML: true,
  overrides: {
    h1: { component: Typography, props: { variant: 'h1', gutterBottom: true } },
    h2: { component: Typography, props: { variant: 'h2', gutterBottom: true, sx: { mt: 3 } } },
    h3: { component: Typography, props: { variant: 'h3', gutterBottom: true, sx: { mt: 3 } } },
    p: { component: Typography, props: { sx: { my: 1.5 } } },
    ul: { component: Box, props: { component: 'ul', sx: { pl: 3, my: 1.5 } } },
    ol: { component: Box, props: { component: 'ol', sx: { pl: 3, my: 1.5 } } },
    li: { component: Typography, props: { component: 'li', sx: { mb: 0.5 } } },
    a: { component: Link },
  },
};

/** /privacy and /terms: the operator's text, public like the other pages in this layout. */
export function LegalPage({ document }: { document: LegalDocumentName }) {
  const legal = useLegalDocument(document);
  return (
    <PublicLayout>
      {legal.isError ? (
        <Alert severity="error">{firstError(legal.error, messages.genericError)}</Alert>
      ) : !legal.data ? (
        <CenteredSpinner />
      ) : (
        <Paper variant="outlined" component="article" sx={{ p: { xs: 3, sm: 5 }, overflowWrap: 'anywhere' }}>
          {/* The page keeps one h1: the document's own first heading, or its title when it has none. */}
          {!/^#\s/.test(legal.data.text.trimStart()) && <Typography variant="h1" gutterBottom>{legal.data.title}</Typography>}
          <Markdown options={markdownOptions}>{legal.data.text}</Markdown>
        </Paper>
      )}
    </PublicLayout>
  );
}
