import { Search } from '@mui/icons-material';
import { Button, Card, CardContent, Stack, TextField, Typography, type TextFieldProps } from '@mui/material';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';

interface SearchBoxProps {
  title: string;
  description: ReactNode;
  label: string;
  /** The search box's own schema (from the contract): its message shows under the box when the text will not do. */
  schema?: z.ZodType<string, string>;
  onSearch?: (value: string) => void;
  /** Spec 2.7: the microchip and card buttons stay disabled while their box is empty. */
  disabledWhenEmpty?: boolean;
  /** A box the spec lists with no search behind it. */
  unavailable?: string;
  busy?: boolean;
  htmlInput?: NonNullable<TextFieldProps['slotProps']>['htmlInput'];
  /** Rewrites what is typed (the card box keeps digits only). */
  clean?: (text: string) => string;
}

/** One box of admin-search: a field and its Search button, submitted by Enter too. */
export function SearchBox({ title, description, label, schema, onSearch, disabledWhenEmpty, unavailable, busy, htmlInput, clean }: SearchBoxProps) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = `search-${title.toLowerCase().replace(/\W+/g, '-')}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!schema || !onSearch) return;
    const parsed = schema.safeParse(text);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    onSearch(parsed.data);
  };

  return (
    <Card component="section" aria-labelledby={id} sx={{ height: '100%' }}>
      <CardContent component="form" noValidate onSubmit={submit} sx={{ height: '100%', display: 'flex', flexDirection: 'column', gap: 2 }}>
        <div>
          <Typography id={id} variant="h6" component="h2">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {description}
          </Typography>
        </div>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 'auto', alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={label}
            value={text}
            onChange={(event) => {
              setText(clean ? clean(event.target.value) : event.target.value);
              setError(null);
            }}
            disabled={Boolean(unavailable)}
            error={Boolean(error)}
            helperText={error ?? unavailable}
            size="small"
            fullWidth
            slotProps={{ htmlInput }}
          />
          <Button
            type="submit"
            variant="contained"
            startIcon={<Search />}
            loading={busy}
            disabled={Boolean(unavailable) || (disabledWhenEmpty && text.trim() === '')}
            aria-label={`Search ${title.toLowerCase()}`}
            sx={{ flexShrink: 0, height: 40 }}
          >
            Search
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
