import { logoutEndpoint } from '@inventory/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { callEndpoint } from './http-client';
import { clearSession } from './session-storage';

/**
 * Signs out locally and goes to /login. With `endServerSession` the session is ended on the
 * server too; after a password change the server has already ended it.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async ({ endServerSession }: { endServerSession: boolean }) => {
      // The logout call takes the token with it and the session is forgotten at once: a query
      // in flight answered 401 once the server ends it is then no news (`callEndpoint`), and the
      // login page does not say the session expired.
      const ending = endServerSession && callEndpoint(logoutEndpoint).catch(() => undefined);
      clearSession();
      queryClient.clear();
      await navigate('/login');
      await ending;
    },
    [navigate, queryClient],
  );
}
