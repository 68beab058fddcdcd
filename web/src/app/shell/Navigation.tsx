import { paths, type User } from '@petreg/contract';
import {
  Campaign,
  CardGiftcard,
  Dashboard,
  ForwardToInbox,
  LocalHospital,
  ManageAccounts,
  MarkEmailUnread,
  Pets,
  Search,
  Storefront,
  UploadFile,
  VpnKey,
} from '@mui/icons-material';
import { List, ListItemButton, ListItemIcon, ListItemText } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useUnreadFoundReports } from '../../features/foundReports/api';
import { UnreadBadge } from './UnreadBadge';

interface NavItem {
  label: string;
  to: string;
  icon: ReactNode;
  /** Other paths that show the same screen. */
  aliases?: string[];
  /** How many things wait there unread (found reports not opened), shown as a badge. */
  unread?: number;
}

/**
 * Spec 2.2: admins get the admin menu, owners theirs; Member Perks only for the paid role. Owners'
 * Found reports (issue 19) follows the dashboard, with the number not opened yet.
 */
function navItems(user: User, unreadFoundReports: number): NavItem[] {
  if (user.role.includes('admin')) {
    return [
      { label: 'Dashboard', to: paths.adminDashboard, icon: <Dashboard />, aliases: [paths.admin] },
      { label: 'Search', to: paths.adminSearch, icon: <Search /> },
      { label: 'Sites', to: paths.adminSites, icon: <Storefront /> },
      { label: 'Send Emails', to: paths.adminSendEmail, icon: <ForwardToInbox /> },
      { label: 'Pet Upload', to: paths.bulkPetUpload, icon: <UploadFile /> },
      { label: 'API Keys', to: paths.adminApiKeys, icon: <VpnKey /> },
    ];
  }
  const items: NavItem[] = [
    { label: 'Dashboard', to: paths.clientDashboard, icon: <Dashboard />, aliases: [paths.client] },
    { label: 'Found reports', to: paths.clientFoundReports, icon: <MarkEmailUnread />, unread: unreadFoundReports },
    { label: 'Pets', to: paths.clientPets, icon: <Pets /> },
    { label: 'Veterinarians', to: paths.clientAddVet, icon: <LocalHospital /> },
    { label: 'Edit your profile', to: paths.clientProfile, icon: <ManageAccounts /> },
    { label: 'Lost Pet Alerts', to: paths.clientAddAlert, icon: <Campaign /> },
  ];
  if (user.role.includes('paidcustomer')) {
    items.push({ label: 'Member Perks', to: paths.clientMemberPerks, icon: <CardGiftcard />, aliases: [paths.clientPerks] });
  }
  return items;
}

/** Owners get found reports; administrators' own accounts hold no pets. */
export const isOwner = (user: User) => !user.role.includes('admin');

export function Navigation({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const unread = useUnreadFoundReports(isOwner(user)).data?.unread ?? 0;
  return (
    <List component="nav" aria-label="Main" sx={{ px: 1.5, py: 2 }}>
      {navItems(user, unread).map(({ label, to, icon, aliases = [], unread: waiting = 0 }) => {
        const current = pathname === to || aliases.includes(pathname) || pathname.startsWith(`${to}/`);
        return (
          <ListItemButton
            key={to}
            component={RouterLink}
            to={to}
            selected={current}
            aria-current={current ? 'page' : undefined}
            aria-label={waiting > 0 ? `${label}, ${waiting} not opened` : undefined}
            onClick={onNavigate}
            sx={{ borderRadius: 2, mb: 0.5 }}
          >
            <ListItemText primary={label} />
            {/* The badge follows the label in the text (shown before it), so what is read on screen, "Found reports 1", begins the name. */}{' '}
            <ListItemIcon sx={{ minWidth: 40, order: -1, color: current ? 'primary.main' : undefined }}>
              <UnreadBadge count={waiting}>{icon}</UnreadBadge>
            </ListItemIcon>
          </ListItemButton>
        );
      })}
    </List>
  );
}
