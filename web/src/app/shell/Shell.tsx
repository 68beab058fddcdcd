import { ui } from '@petreg/contract';
import { Menu as MenuIcon, Pets, SupportAgent } from '@mui/icons-material';
import { AppBar, Box, Drawer, IconButton, Link, Toolbar, Tooltip, Typography, type Theme } from '@mui/material';
import { useState } from 'react';
import { Outlet, Link as RouterLink } from 'react-router';
import { useSession } from '../../features/auth/session';
import { EmailConfirmationBanner } from '../../features/profile/EmailConfirmationBanner';
import { homePath } from '../access';
import { useUnreadFoundReports } from '../../features/foundReports/api';
import { isOwner, Navigation } from './Navigation';
import { SupportPanel } from './SupportPanel';
import { UnreadBadge } from './UnreadBadge';
import { UserMenu } from './UserMenu';

const navWidth = 260;
/** The permanent drawers sit below the app bar; the narrow-screen ones open over it. */
const overAppBar = (theme: Theme) => theme.zIndex.drawer + 2;

/**
 * The wide-screen panels are columns of the page, as tall as the page however long it is (a fixed
 * panel ends at the first screen's bottom in a full-page view or print); their content stays in view.
 */
const docked = (width: number) => ({
  height: '100%',
  // Not a scroll box of its own, so the content sticks to the window as the page scrolls.
  '& .MuiDrawer-paper': { position: 'relative', height: '100%', width, boxSizing: 'border-box', overflowY: 'visible' },
});
const stickyColumn = { position: 'sticky', top: 0, maxHeight: '100vh', overflowY: 'auto' } as const;

/** Toolbar, navigation and side panel around the signed-in screens; they show only with a user e-mail (spec 2.2). */
export function Shell() {
  const { user } = useSession();
  const [navOpen, setNavOpen] = useState(false);
  const [supportOpen, setSupportOpen] = useState(false);
  // The "Need help?" panel is for owners: administrators are the help it points to.
  const withSupport = !user?.role.includes('admin');
  // On a narrow screen the menu is folded away: its button carries the found reports' badge.
  const unread = useUnreadFoundReports(Boolean(user?.data.email && isOwner(user))).data?.unread ?? 0;

  if (!user?.data.email) {
    return (
      <Box component="main" sx={{ p: 3 }}>
        <Outlet />
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar
        position="fixed"
        color="inherit"
        elevation={0}
        sx={{ zIndex: (theme) => theme.zIndex.drawer + 1, borderBottom: 1, borderColor: 'divider' }}
      >
        <Toolbar sx={{ gap: 1 }}>
          <IconButton
            edge="start"
            aria-label={unread > 0 ? `Open navigation, ${unread} found report${unread === 1 ? '' : 's'} not opened` : 'Open navigation'}
            onClick={() => setNavOpen(true)}
            sx={{ display: { md: 'none' } }}
          >
            <UnreadBadge count={unread}>
              <MenuIcon />
            </UnreadBadge>
          </IconButton>
          <Link
            component={RouterLink}
            to={homePath(user)}
            underline="none"
            sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'primary.main' }}
          >
            <Pets aria-hidden />
            <Typography variant="subtitle1" component="span" sx={{ fontWeight: 700 }}>
              Pet Registry
            </Typography>
          </Link>
          <Box sx={{ flexGrow: 1 }} />
          <UserMenu user={user} />
          {withSupport && (
            <Tooltip title="Support">
              <IconButton aria-label="Support" onClick={() => setSupportOpen(true)} sx={{ display: { lg: 'none' } }}>
                <SupportAgent />
              </IconButton>
            </Tooltip>
          )}
        </Toolbar>
      </AppBar>

      <Box sx={{ width: { md: navWidth }, flexShrink: { md: 0 } }}>
        <Drawer
          variant="temporary"
          open={navOpen}
          onClose={() => setNavOpen(false)}
          sx={{ display: { xs: 'block', md: 'none' }, zIndex: overAppBar, '& .MuiDrawer-paper': { width: navWidth } }}
        >
          <Navigation user={user} onNavigate={() => setNavOpen(false)} />
        </Drawer>
        <Drawer variant="permanent" sx={{ display: { xs: 'none', md: 'block' }, ...docked(navWidth) }} open>
          <Box sx={stickyColumn}>
            <Toolbar />
            <Navigation user={user} />
          </Box>
        </Drawer>
      </Box>

      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}>
        <Toolbar />
        <EmailConfirmationBanner user={user} />
        <Outlet />
      </Box>

      {withSupport && (
        <Box sx={{ width: { lg: ui.sidePanelWidth }, flexShrink: { lg: 0 } }}>
          <Drawer
            variant="temporary"
            anchor="right"
            open={supportOpen}
            onClose={() => setSupportOpen(false)}
            sx={{ display: { xs: 'block', lg: 'none' }, zIndex: overAppBar, '& .MuiDrawer-paper': { width: ui.sidePanelWidth } }}
          >
            <SupportPanel />
          </Drawer>
          <Drawer variant="permanent" anchor="right" open sx={{ display: { xs: 'none', lg: 'block' }, ...docked(ui.sidePanelWidth) }}>
            <Box sx={stickyColumn}>
              <Toolbar />
              <SupportPanel />
            </Box>
          </Drawer>
        </Box>
      )}
    </Box>
  );
}
