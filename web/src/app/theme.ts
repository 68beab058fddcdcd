import { ui } from '@petreg/contract';
import { createTheme } from '@mui/material/styles';

/**
 * Every colour that carries text holds WCAG AA (4.5:1) against white and the page's grey: the
 * secondary orange, warning and info are darker than MUI's, whose white labels and outlined text
 * fall near 3:1.
 */
export const theme = createTheme({
  palette: {
    primary: { main: '#0f5e6b', contrastText: '#ffffff' },
    secondary: { main: '#ad5410', contrastText: '#ffffff' },
    warning: { main: '#a65100', contrastText: '#ffffff' },
    info: { main: '#0277bd', contrastText: '#ffffff' },
    background: { default: '#f4f6f8', paper: '#ffffff' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '2rem', fontWeight: 700 },
    h2: { fontSize: '1.6rem', fontWeight: 700 },
    h3: { fontSize: '1.3rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    // A disabled field's hint is still read (a counter, what to choose first): it keeps the hint's colour.
    MuiFormHelperText: { styleOverrides: { root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }) } },
    // Links in running text are told apart by more than their colour (WCAG 1.4.1).
    MuiLink: { defaultProps: { underline: 'always' } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiTooltip: { defaultProps: { enterDelay: ui.menuHoverDelayMs } },
  },
});
