import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { setUnauthorizedHandler } from './http-client';
import { getStoredUserName } from './session-storage';
import { useProfile } from './use-profile';
import { UserMenu } from './user-menu';
import { useSignOut } from './use-sign-out';

const PasswordDrawer = lazy(() => import('./password-drawer'));

/**
 * The user menu and the password drawer, shared by the staff and agent layouts. The drawer opens
 * by itself while the profile's first_login equals 1; its code loads when it first opens.
 */
export function SessionControls() {
  const profile = useProfile();
  const signOut = useSignOut();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => void navigate('/login?code=401', { replace: true }));
  }, [navigate]);
  const firstLogin = profile.data?.first_login === 1;
  return (
    <>
      <UserMenu
        userName={profile.data?.name ?? getStoredUserName()}
        onChangePassword={() => setDrawerOpen(true)}
        onLogout={() => void signOut({ endServerSession: true })}
      />
      {(drawerOpen || firstLogin) && (
        <Suspense fallback={null}>
          <PasswordDrawer firstLogin={firstLogin} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
