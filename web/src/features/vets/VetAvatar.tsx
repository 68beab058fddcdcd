import { alpha, Avatar, type AvatarProps } from '@mui/material';
import { Initials } from '../../components/Initials';
import { initials } from './vetDisplay';

interface VetAvatarProps extends Pick<AvatarProps, 'variant' | 'sx'> {
  name: string;
  picture: string | null;
}

/** The vet's logo or photo; its initials when it has none or the picture fails to load. */
export function VetAvatar({ name, picture, variant = 'rounded', sx }: VetAvatarProps) {
  return (
    <Avatar
      src={picture ?? undefined}
      alt=""
      // Beside the vet's name everywhere: the initials would only repeat it.
      aria-hidden
      variant={variant}
      sx={[
        (theme) => ({ bgcolor: alpha(theme.palette.primary.main, 0.1), color: 'primary.main', fontWeight: 700 }),
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <Initials text={initials(name)} />
    </Avatar>
  );
}
