import { messages, type LegalDocumentName } from '@petreg/contract';
import { Alert, Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { useLegalDocument } from './api';
import { PublicLayout } from './PublicLayout';

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
          {blocks(legal.data.text)}
        </Paper>
      )}
    </PublicLayout>
  );
}

/**
 * The few markdown forms a policy needs (#, ## and ### headings, "- " lists, paragraphs), turned into
 * elements rather than HTML, so a plain-text file reads well too and nothing in the file can run.
 */
function blocks(text: string): ReactNode[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block, index) => {
      const heading = /^(#{1,3})\s+(.*)$/.exec(block);
      if (heading && !block.includes('\n')) {
        const level = heading[1]!.length as 1 | 2 | 3;
        return (
          <Typography key={index} variant={`h${level}`} component={`h${level}`} gutterBottom sx={{ mt: level > 1 ? 3 : 0 }}>
            {heading[2]}
          </Typography>
        );
      }
      const lines = block.split('\n');
      if (lines.every((line) => /^[-*]\s/.test(line))) {
        return (
          <Box key={index} component="ul" sx={{ pl: 3, my: 1.5 }}>
            {lines.map((line, item) => (
              <Typography key={item} component="li" sx={{ mb: 0.5 }}>
                {line.replace(/^[-*]\s+/, '')}
              </Typography>
            ))}
          </Box>
        );
      }
      return (
        <Typography key={index} sx={{ my: 1.5, whiteSpace: 'pre-line' }}>
          {block}
        </Typography>
      );
    });
}
