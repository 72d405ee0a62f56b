import { logoutEndpoint } from '@inventory/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { callEndpoint } from './http-client';
import { clearSession } from './session-storage';

/**
 * Signs out locally and goes to /login. With `endServerSession` the session is ended on the
 * server first; after a password change the server has already ended it.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async ({ endServerSession }: { endServerSession: boolean }) => {
      if (endServerSession) await callEndpoint(logoutEndpoint).catch(() => undefined);
      clearSession();
      queryClient.clear();
      await navigate('/login');
    },
    [navigate, queryClient],
  );
}
