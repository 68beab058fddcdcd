import { paths, type User } from '@petreg/contract';
import {
  Campaign,
  CardGiftcard,
  Dashboard,
  ForwardToInbox,
  LocalHospital,
  ManageAccounts,
  Pets,
  Search,
  Storefront,
  UploadFile,
  VpnKey,
} from '@mui/icons-material';
import { List, ListItemButton, ListItemIcon, ListItemText } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';

interface NavItem {
  label: string;
  to: string;
  icon: ReactNode;
  /** Other paths that show the same screen. */
  aliases?: string[];
}

/** Spec 2.2: admins get the admin menu, owners theirs; Member Perks only for the paid role. */
function navItems(user: User): NavItem[] {
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

export function Navigation({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <List component="nav" aria-label="Main" sx={{ px: 1.5, py: 2 }}>
      {navItems(user).map(({ label, to, icon, aliases = [] }) => {
        const current = pathname === to || aliases.includes(pathname) || pathname.startsWith(`${to}/`);
        return (
          <ListItemButton
            key={to}
            component={RouterLink}
            to={to}
            selected={current}
            aria-current={current ? 'page' : undefined}
            onClick={onNavigate}
            sx={{ borderRadius: 2, mb: 0.5 }}
          >
            <ListItemIcon sx={{ minWidth: 40, color: current ? 'primary.main' : undefined }}>{icon}</ListItemIcon>
            <ListItemText primary={label} />
          </ListItemButton>
        );
      })}
    </List>
  );
}
