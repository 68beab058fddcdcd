import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * Goes where a server's answer says: a page of the portal without reloading it, anywhere else (a card
 * provider's hosted checkout) with a full page load.
 */
export function useFollowLocation() {
  const navigate = useNavigate();
  return useCallback(
    (location: string) => {
      const url = new URL(location, window.location.href);
      if (url.origin === window.location.origin) void navigate(`${url.pathname}${url.search}${url.hash}`);
      else window.location.assign(url.href);
    },
    [navigate],
  );
}
