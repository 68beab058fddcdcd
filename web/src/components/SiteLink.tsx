import { Link, type LinkProps } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/** A link to a configured address: paths inside the portal stay in the app, others load the other site. */
export function SiteLink({ href, ...props }: Omit<LinkProps, 'href' | 'component'> & { href: string }) {
  if (href.startsWith('/') && !href.startsWith('//')) return <Link component={RouterLink} to={href} {...props} />;
  return <Link href={href} {...props} />;
}
