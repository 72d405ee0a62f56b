import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getToken, loginPathFor } from './session-storage';

/** Without a stored token every page sends the visitor to the right login (spec section 4). */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!getToken()) {
    return <Navigate to={loginPathFor(location.pathname)} replace state={{ from: location }} />;
  }
  return children;
}
