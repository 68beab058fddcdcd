import { paths, type User } from '@petreg/contract';
import { AccountCircle, CreditCard, ExpandMore, Logout } from '@mui/icons-material';
import {
  Avatar,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
} from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Initials } from '../../components/Initials';
import { openBillingDashboard } from '../billing';

export function UserMenu({ user }: { user: User }) {
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const close = () => setAnchor(null);
  const { displayName, photoUrl } = user.data;

  return (
    <>
      <Button
        color="inherit"
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={Boolean(anchor)}
        aria-controls={anchor ? 'user-menu' : undefined}
        aria-label={`Hi, ${displayName}`}
        endIcon={<ExpandMore />}
        sx={{ textTransform: 'none', pl: 0.5 }}
      >
        <Avatar src={photoUrl ?? undefined} alt="" sx={{ width: 32, height: 32, mr: 1, bgcolor: 'primary.main' }}>
          <Initials text={displayName.charAt(0).toUpperCase()} />
        </Avatar>
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          Hi, {displayName}
        </Box>
      </Button>
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem component={RouterLink} to={paths.clientProfile} onClick={close}>
          <ListItemIcon>
            <AccountCircle fontSize="small" />
          </ListItemIcon>
          <ListItemText>Profile</ListItemText>
        </MenuItem>
        {user.data.haveSubscriptions && (
          <MenuItem
            onClick={() => {
              close();
              void openBillingDashboard(user.id);
            }}
          >
            <ListItemIcon>
              <CreditCard fontSize="small" />
            </ListItemIcon>
            <ListItemText>Subscription</ListItemText>
          </MenuItem>
        )}
        <MenuItem
          onClick={() => {
            close();
            setConfirmingLogout(true);
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          <ListItemText>Log Out</ListItemText>
        </MenuItem>
      </Menu>
      <Dialog
        open={confirmingLogout}
        onClose={() => setConfirmingLogout(false)}
        aria-labelledby="logout-title"
        aria-describedby="logout-text"
      >
        <DialogTitle id="logout-title">Logging Out</DialogTitle>
        <DialogContent>
          <DialogContentText id="logout-text">You are now being Logged Out</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmingLogout(false)}>Cancel</Button>
          <Button variant="contained" onClick={() => void navigate(paths.signOut)}>
            Signout
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
